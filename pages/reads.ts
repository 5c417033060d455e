import { isIdText } from '../bff/contracts/common.contract';
import type { Endpoint, Read } from '../bff/contracts/endpoint.contract';
import type { PageName } from './pages';

/** Where a page is: its path params and its search params. */
export type PageAddress = { readonly params: Readonly<Record<string, string | undefined>>; readonly search: URLSearchParams };

/** One read a page starts with. `in-page`: an outage of an outside service (Kisi, a sample API) shows inside the page. */
export type PageRead<E extends Endpoint = Endpoint> = Read<E> & { readonly outage?: 'in-page' };

/**
 * A route's first reads, from its address alone, each named: what its loader waits for, a link's
 * hover warms, its component shows, and the BFF names in the page's HTML (`<link rel="preload">`).
 * The names are the same for every address (a read the address does not call for is undefined).
 */
export type PageReads<R extends Record<string, PageRead | undefined> = Record<string, PageRead | undefined>> = (address: PageAddress) => R;

export const inPage = <E extends Endpoint>(read: Read<E>): PageRead<E> & { outage: 'in-page' } => ({ ...read, outage: 'in-page' });

/** An area's pages' first reads, by page (a page behind a layout names the layout's reads too). */
export type AreaReads = Partial<Record<PageName, PageReads>>;

/** An address the page cannot have (`/pieces/abc`): its route answers the not-found screen, the BFF preloads nothing. */
export class AddressNotFound extends Error {}

/** The id in the address's `name` param, or `AddressNotFound` ("No gym owner with id abc"). */
export function idParam({ params }: PageAddress, name: string, what: string): number {
  const text = params[name];
  if (!isIdText(text)) throw new AddressNotFound(`No ${what} with id ${text ?? ''}`);
  return Number(text);
}
