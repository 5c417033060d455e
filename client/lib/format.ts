const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const whenExact = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A UTC ISO timestamp in the reader's locale and zone ("1 Mar 2025, 09:30"); '' for none. */
export const formatWhen = (iso: string | null | undefined) => (iso ? when.format(new Date(iso)) : '');
/** The same with seconds, for event feeds where several things happen in one minute. */
export const formatWhenExact = (iso: string | null | undefined) => (iso ? whenExact.format(new Date(iso)) : '');
