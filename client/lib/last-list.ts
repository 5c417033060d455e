/**
 * A list page's address as this tab last showed it (its search, filters and page): where the list's
 * detail pages lead back to when the link that opened them did not say (an address typed or shared,
 * the page left after a delete). Kept for the tab's life, not stored: a new tab starts at the bare list.
 */
export function lastListAddress(bare: string) {
  let last = bare;
  return {
    /** The list page says which list it shows, each time that changes. */
    remember: (href: string): void => {
      last = href;
    },
    get: (): string => last,
  };
}
