import type { Read } from './endpoint.contract';
import type { PageName } from './pages.contract';
import { catalogueReads } from './catalogue.contract';
import { chatReads } from './chat.contract';
import { gymReads } from './gym.contract';
import { ptReads } from './pt.contract';
import { statusReads } from './status.contract';

/**
 * What a page's loader reads first, known from its address alone (docs/decisions/0075): the BFF
 * names these reads in the page's HTML (`<link rel="preload" as="fetch">`), so the browser starts
 * them with the scripts instead of after they have run, and the app's own request takes the answer.
 * Each read is the feature's own `Read` value, which the client's cache key is made from too, so
 * both spell one URL. `at`: `any address` when the page's search params do not change the read (the
 * diner's `?table=12`), `bare address` when only the address without search params gives it (a
 * list's default page). The BFF preloads a read only for a session its access admits: a visitor
 * never gets a staff page's read (it would fail, logged in the console).
 */
export type FirstRead = { readonly read: Read; readonly at: 'any address' | 'bare address' };

const first = (read: Read<never> | Read, at: FirstRead['at'] = 'any address'): FirstRead => ({ read: read as Read, at });

export const firstReads: Partial<Record<PageName, readonly FirstRead[]>> = {
  home: [first(statusReads.status)],
  pieces: [first(catalogueReads.firstPiecesPage, 'bare address'), first(catalogueReads.categories)],
  ptDinerMenu: [first(ptReads.menu)],
  ptRunner: [first(ptReads.openOrders), first(ptReads.servedOrders), first(ptReads.cancelledOrders)],
  chat: [first(chatReads.channels)],
  gymMembers: [first(gymReads.firstMembersPage, 'bare address')],
};
