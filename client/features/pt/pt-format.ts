import type { OrderStatus, WaitRange } from '@contracts/pt.contract';

/** Money, ticket ages and order steps in words: the food court's formatting, in one place. */

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    } catch {
      // A currency code the browser does not know: plain numbers with the code beside them.
      format = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    moneyFormats.set(currency, format);
  }
  return format;
}

/** Integer cents in the venue's currency ("€4.50", "4,50 €" by the reader's locale). */
export function formatMoney(cents: number, currency: string): string {
  const format = moneyFormat(currency);
  const text = format.format(cents / 100);
  return format.resolvedOptions().style === 'currency' ? text : `${text} ${currency}`;
}

/** The currency's own sign for labels ("€"), or its code. */
export function currencySymbol(currency: string): string {
  return moneyFormat(currency).formatToParts(0).find((part) => part.type === 'currency')?.value ?? currency;
}

/** Cents as a price field shows them ("4.50"). */
export const centsToInput = (cents: number) => (cents / 100).toFixed(2);

/**
 * A typed price ("4.5", "4,50", "€ 12") in cents, or undefined when it is not one. Whole cents
 * only: "4.505" is refused rather than rounded behind the staff member's back.
 */
export function parsePrice(text: string): number | undefined {
  const cleaned = text.replace(/[^\d.,-]/g, '').replace(',', '.');
  if (!/^\d{1,6}(\.\d{0,2})?$/.test(cleaned)) return undefined;
  const [whole = '0', fraction = ''] = cleaned.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** "gluten, Sesame ,  nuts" → ["gluten", "Sesame", "nuts"]. */
export const parseAllergens = (text: string) =>
  text
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);

export const STATUS_LABELS: Record<OrderStatus, string> = {
  received: 'Received',
  preparing: 'Preparing',
  ready: 'Ready',
  served: 'Served',
  cancelled: 'Cancelled',
};

/** What the runner's bump button says for each step. */
export const BUMP_LABELS: Partial<Record<OrderStatus, string>> = {
  received: 'Start preparing',
  preparing: 'Mark ready',
  ready: 'Mark served',
};

export const AMBER_AFTER_MIN = 5;
export const RED_AFTER_MIN = 10;

/** A ticket's age in whole minutes. */
export const ageMinutes = (createdAt: string, now: number) => Math.max(0, Math.floor((now - new Date(createdAt).getTime()) / 60_000));

/** Green under 5 minutes, amber from 5, red from 10. */
export const ageTone = (minutes: number): 'fresh' | 'waiting' | 'late' => (minutes >= RED_AFTER_MIN ? 'late' : minutes >= AMBER_AFTER_MIN ? 'waiting' : 'fresh');

export const formatAge = (minutes: number) => (minutes < 1 ? 'just now' : minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`);

/** A wait as a diner reads it: "about 10–15 min" (the server gives whole 5 minutes, never a promised minute). */
export const formatWait = ({ low, high }: WaitRange) => `about ${low}–${high} min`;

/** The same wait as times of day from when the order was placed, so it stays true while the diner waits ("12:40–12:45"). */
export const waitClock = (createdAt: string, { low, high }: WaitRange, formatTime: (iso: string) => string) => {
  const at = (minutes: number) => formatTime(new Date(Date.parse(createdAt) + minutes * 60_000).toISOString());
  return `${at(low)}–${at(high)}`;
};
