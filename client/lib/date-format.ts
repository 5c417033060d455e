const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A timestamp as "1 Mar 2025, 09:30" in the browser's locale; '' for none. */
export const formatWhen = (iso: string | null | undefined) => (iso ? when.format(new Date(iso)) : '');
