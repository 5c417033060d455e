import { SESSION_KEY, fetchSession } from './session';
import { paths } from './paths';
import { useQuery } from './cache';

/**
 * The areas shown in the header and as cards on the home page. A new area adds one entry here and
 * its routes in router.tsx.
 */
export type Area = {
  title: string;
  href: string;
  summary: string;
  /** Shown in the header navigation (the rest are reachable from the home page). */
  nav?: boolean;
  /** Needs a signed-in account. */
  staff?: boolean;
  /** Admins only: hidden from everyone else. */
  admin?: boolean;
  icon: 'shell' | 'test' | 'counter' | 'panel' | 'chime' | 'arch' | 'info' | 'clock' | 'alert' | 'dumbbell' | 'users' | 'key' | 'inbox' | 'activity' | 'food' | 'search' | 'portal' | 'ball' | 'question';
};

export const areas: Area[] = [
  { title: 'Staff shell', href: paths.shell, summary: 'Your account, service status and the staff tools.', nav: true, staff: true, icon: 'shell' },
  { title: 'Gym owners', href: paths.gymOwners, summary: 'The gyms whose members use the venue: add, look up and remove owners.', nav: true, staff: true, icon: 'dumbbell' },
  { title: 'Gym members', href: paths.gymMembers, summary: 'Find a member, change their membership and see whether the doors open for them.', staff: true, icon: 'users' },
  { title: 'Access control', href: paths.kisi, summary: 'Kisi door access: switch people on and off, groups, access links and a remote unlock.', nav: true, staff: true, admin: true, icon: 'key' },
  { title: 'Food court', href: paths.pt, summary: 'The stalls and their menus, ordering from your table, and the runners’ live board.', nav: true, icon: 'food' },
  { title: 'Catalogue', href: paths.pieces, summary: 'Sets and their parts: find one by number or name, open its parts list, see where a part is used.', nav: true, icon: 'search' },
  { title: 'Rick and Morty', href: paths.rick, summary: 'Every character of the show, searchable by name and status: a sample on a public API.', icon: 'portal' },
  { title: 'Pokémon', href: paths.pokemonList, summary: 'The Pokédex six at a time: artwork, types, stats and size of each.', icon: 'ball' },
  { title: 'Who’s that Pokémon?', href: paths.quiz, summary: 'A quiz: name the Pokémon from its silhouette. Your score and best streak are kept.', icon: 'question' },
  { title: 'Door events', href: paths.shellWebhook, summary: 'Every door unlock Kisi reports, arriving live; remove the ones you have dealt with.', staff: true, icon: 'inbox' },
  { title: 'Self-test', href: paths.selfTest, summary: 'Check the API, your session, live events and storage from this browser.', nav: true, icon: 'test' },
  { title: 'Windphony', href: paths.windphony, summary: 'A wind-chime you play with the keyboard or the mouse.', nav: true, icon: 'chime' },
  { title: 'Counter', href: paths.counter, summary: 'A tally that keeps its count while you move around the app.', icon: 'counter' },
  { title: 'Side panel', href: paths.sidepanel, summary: 'The venue spaces, each opening its details in a side panel.', icon: 'panel' },
  { title: 'Arcos', href: paths.arcos, summary: 'Nested routes: a list beside the detail it opens.', icon: 'arch' },
  { title: 'About', href: paths.about, summary: 'What Frontdesk is, its version and where to read more.', nav: true, icon: 'info' },
];

/** The areas a visitor may see: admin-only ones only for admins (the API refuses everyone else anyway). */
export function visibleAreas(list: Area[], role: string | null | undefined): Area[] {
  return list.filter((area) => !area.admin || role === 'admin');
}

/** `visibleAreas` for whoever is signed in now (the header's session read, shared through SWR). */
export function useVisibleAreas(list: Area[]): Area[] {
  const { data: user } = useQuery(SESSION_KEY, fetchSession);
  return visibleAreas(list, user?.role);
}

/** The screens that show the app's loading and error states, for checking them on purpose. */
export const diagnostics: Area[] = [
  { title: 'Slow page', href: paths.pending, summary: 'Waits 5 seconds before showing: the loading overlay.', icon: 'clock' },
  { title: 'Failing page', href: paths.error, summary: 'Its loader always throws: the error screen.', icon: 'alert' },
  { title: 'Server error', href: paths.bad, summary: 'Calls an API that answers 500: the error screen with the problem.', icon: 'alert' },
];
