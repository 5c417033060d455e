import { useEffect } from 'react';
import * as v from 'valibot';
import { urlOf } from '@contracts/endpoint.contract';
import { MenuChangeSchema, ptApi, type Menu, type MenuChange, type MenuItem, type MenuStall } from '@contracts/pt.contract';
import { availabilityWords } from '@contracts/stall-hours.contract';
import { call } from '@/lib/api-client';
import { invalidate, setQueryData } from '@/lib/reads';
import { useResourceStream } from '@/lib/resource-stream';
import { menuQuery } from './pt.api';

/**
 * The diners' menu kept as it is while a page shows it (the menu, the cart): the menu's own stream
 * (`GET /api/pt/menu/stream`, public: a diner has no account) carries each change as it is made. A
 * dish sold out or back is folded into the cached menu at once; any other change (a stall paused,
 * given hours, a dish added) reads the menu again. The stream opening (first time, after a drop)
 * reads it again too, for what was missed. A stall opening or closing by its hours has no event: the
 * page reads the menu again when the next stall's `opensAt` or `closesAt` comes (the server decides
 * at ordering time anyway).
 */

const MENU_STREAM_URL = urlOf(ptApi.menuStream);
/** setTimeout's longest wait (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Read a moment after the minute turns, so the server's clock has passed it too. */
const AFTER_CHANGE_MS = 1_000;

const readMenuAgain = () => void invalidate(ptApi.menu).catch(() => {});

/** The menu with one dish's change folded in; undefined when the change is not one it can fold (the menu is read again). */
export function withMenuChange(menu: Menu, change: MenuChange): Menu | undefined {
  if (change.kind !== 'item') return undefined;
  const { item } = change;
  const stall = menu.stalls.find((s) => s.id === item.stallId);
  if (!stall?.items.some((i) => i.id === item.id)) return undefined;
  return { ...menu, stalls: menu.stalls.map((s) => (s === stall ? { ...s, items: s.items.map((i) => (i.id === item.id ? item : i)) } : s)) };
}

/** The next instant (ms) a stall of the menu opens or closes by its hours, if any. */
export function nextHoursChange(menu: Menu | undefined, now: number): number | undefined {
  const times = (menu?.stalls ?? []).flatMap((s) => [s.availability.opensAt, s.availability.closesAt]).flatMap((at) => (at ? [Date.parse(at)] : []));
  const ahead = times.filter((at) => at > now);
  return ahead.length ? Math.min(...ahead) : undefined;
}

/** Follows the menu's changes live while mounted (see above); `menu`: the menu on screen, for its next opening or closing time. */
export function useLiveMenu(menu: Menu | undefined): void {
  useResourceStream({
    url: MENU_STREAM_URL,
    eventName: 'menu',
    onMessage: (data) => {
      const parsed = v.safeParse(MenuChangeSchema, data);
      if (!parsed.success) return;
      let folded = false;
      setQueryData<Menu>(menuQuery.key, (current) => {
        const next = current && withMenuChange(current, parsed.output);
        folded = next !== undefined;
        return next;
      });
      if (!folded) readMenuAgain();
    },
    onOpen: readMenuAgain,
    // Refused (the database away: a 503): the menu itself is asked once, and the stream tried again later.
    whenRefused: async (signal) => {
      const now = await call(ptApi.menu);
      if (!signal.aborted) setQueryData<Menu>(menuQuery.key, now);
    },
  });

  const next = nextHoursChange(menu, Date.now());
  useEffect(() => {
    if (next === undefined) return;
    const timer = setTimeout(readMenuAgain, Math.min(MAX_TIMER_MS, Math.max(0, next - Date.now()) + AFTER_CHANGE_MS));
    return () => clearTimeout(timer);
  }, [next]);
}

/** For a page that follows the menu only some of the time (the cart, while it holds dishes): mounted, it follows. */
export function FollowMenu({ menu }: { menu: Menu | undefined }): null {
  useLiveMenu(menu);
  return null;
}

/** Whether a dish can be put in the cart now: its stall takes orders and it is not sold out. */
export const canOrder = (stall: Pick<MenuStall, 'availability'>, item: Pick<MenuItem, 'soldOut'>) => stall.availability.state === 'open' && !item.soldOut;

/** What a diner reads of a stall not taking orders now ("Closed now · opens Tue 11:30", "Paused"), by the venue's clock; undefined when open. */
export const stallClosedWords = (stall: Pick<MenuStall, 'availability'>, menu: Pick<Menu, 'timeZone'>, now = Date.now()) => availabilityWords(stall.availability, now, menu.timeZone);
