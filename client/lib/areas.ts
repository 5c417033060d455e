import type { SessionUser } from '@contracts/auth.contract';
import { DESK, WORKERS, matchPage, type Audience } from '@pages/pages';
import { sessionRead } from './session';
import { paths } from './paths';
import { useRead } from './reads';

/**
 * The areas, in the order each person's header lists theirs, and as cards on the home page. Who may
 * open one is its page's `for` (pages/pages.ts); `only` offers it to fewer (the diner's help, the staff's
 * toys); `nav`: who finds it in the header (the rest reach it from the home page).
 */
type AreaEntry = {
  title: string;
  href: string;
  summary: string;
  only?: readonly Audience[];
  nav?: readonly Audience[];
  icon: 'shell' | 'test' | 'counter' | 'panel' | 'chime' | 'arch' | 'info' | 'clock' | 'alert' | 'dumbbell' | 'users' | 'key' | 'inbox' | 'activity' | 'food' | 'search' | 'portal' | 'ball' | 'question' | 'server' | 'image' | 'post';
};

export type Area = AreaEntry & { for: readonly Audience[] };

/** Each entry with who it is for: its page's audience, narrowed by `only`. */
const withAudience = (entries: AreaEntry[]): Area[] =>
  entries.map((entry) => {
    const page = matchPage(entry.href.split('?')[0]!)?.page;
    if (!page) throw new Error(`The area ${entry.title} leads to no page (${entry.href})`);
    return { ...entry, for: entry.only ? page.for.filter((who) => entry.only!.includes(who)) : page.for };
  });

export const areas: Area[] = withAudience([
  { title: 'Members', href: paths.gymMembers, summary: 'Find a member, change their membership and see whether the doors open for them.', nav: DESK, icon: 'users' },
  { title: 'Door events', href: paths.shellWebhook, summary: 'Every door unlock Kisi reports, arriving live; remove the ones you have dealt with.', nav: DESK, icon: 'inbox' },
  { title: 'Gym owners', href: paths.gymOwners, summary: 'The gyms whose members use the venue: add, look up and remove owners.', nav: DESK, icon: 'dumbbell' },
  { title: 'Runner board', href: paths.ptRunner, summary: 'The open orders of every stall, live: take, ready and serve them.', nav: ['runner'], icon: 'activity' },
  { title: 'Kitchen screens', href: paths.ptKitchens, summary: 'One stall’s tickets on the tablet at its counter: bump them as they cook, live.', icon: 'food' },
  { title: 'Food court', href: paths.pt, summary: 'The stalls and their menus, ordering from your table, and the runners’ live board.', nav: DESK, icon: 'food' },
  { title: 'Food court figures', href: paths.ptReports, summary: 'Orders, revenue, average ticket and cancellations by hour and by stall, for a day or a range; export them as CSV.', icon: 'activity' },
  { title: 'Chat', href: paths.chat, summary: 'The staff’s channels; runners read and write in the Kitchen channel.', nav: WORKERS, icon: 'post' },
  { title: 'Guest help', href: paths.conversations, summary: 'Diners and members who asked for help, answered by the front desk.', nav: DESK, icon: 'question' },
  { title: 'Files', href: paths.uploadMany, summary: 'Upload the desk’s files, several at a time, resumable over a weak connection.', nav: DESK, icon: 'image' },
  { title: 'Audit trail', href: paths.shellAudit, summary: 'Who changed what and when: memberships, door access, unlocks, stalls, accounts; filter and export it.', nav: ['admin'], icon: 'activity' },
  { title: 'Team', href: paths.team, summary: 'Who can sign in, with which role: invite people by link, change roles, deactivate, reset passwords.', nav: ['admin'], icon: 'users' },
  { title: 'Operations', href: paths.operations, summary: 'Backups of the database and files: the last one, those kept, one now; and how long each kind of record is kept.', icon: 'server' },
  { title: 'Access control', href: paths.kisi, summary: 'Kisi door access: switch people on and off, groups, access links and a remote unlock.', nav: ['admin'], icon: 'key' },
  { title: 'Ask for help', href: paths.help, summary: 'A diner or member asks the front desk for help and follows the answers here.', only: ['visitor'], icon: 'question' },
  { title: 'Catalogue', href: paths.pieces, summary: 'Sets and their parts: find one by number or name, open its parts list, see where a part is used.', icon: 'search' },
  { title: 'Staff shell', href: paths.shell, summary: 'Your account, service status and the staff tools.', icon: 'shell' },
  { title: 'About', href: paths.about, summary: 'What Frontdesk is, its version and where to read more.', icon: 'info' },
]);

/**
 * A diner's pages (docs/decisions/0061): the header of everyone without an account, and the food
 * court's tabs of whoever orders. Not home-page cards: the Food court card leads to them.
 */
export const dinerPages: Area[] = withAudience([
  { title: 'Menu', href: paths.ptDinerMenu, summary: 'Every stall’s dishes, ordered from your table.', nav: ['visitor'], icon: 'food' },
  { title: 'Cart', href: paths.ptCart, summary: 'One cart for every stall: check it and place the order.', nav: ['visitor'], icon: 'food' },
  { title: 'Your order', href: paths.ptOrder, summary: 'The orders placed from this device, followed live until they reach the table.', nav: ['visitor'], icon: 'activity' },
  { title: 'Help', href: paths.help, summary: 'Ask the front desk for help and follow the answers.', only: ['visitor'], nav: ['visitor'], icon: 'question' },
]);

/** Sample pages on public APIs and the app's demos: on the home page, out of the desk's way. */
export const samples: Area[] = withAudience([
  { title: 'Rick and Morty', href: paths.rick, summary: 'Every character of the show, searchable by name and status: a sample on a public API.', icon: 'portal' },
  { title: 'Pokémon', href: paths.pokemonList, summary: 'The Pokédex six at a time: artwork, types, stats and size of each.', icon: 'ball' },
  { title: 'Who’s that Pokémon?', href: paths.quiz, summary: 'A quiz: name the Pokémon from its silhouette. Your score and best streak are kept.', icon: 'question' },
  { title: 'Chat grid', href: paths.chatGrid, summary: 'Every channel at once, each with its latest messages.', icon: 'panel' },
  { title: 'Chat split', href: paths.chatFlex, summary: 'The channel list and thread with a divider you can drag.', icon: 'panel' },
  { title: 'Upload one file', href: paths.uploadOne, summary: 'One file with a progress bar; it resumes after a dropped connection.', icon: 'image' },
  { title: 'Posts', href: paths.posts, summary: 'JSONPlaceholder’s posts, their authors and comments, through the BFF.', icon: 'inbox' },
  { title: 'Live stream', href: paths.shellSse, summary: 'The live events as they arrive, raw.', icon: 'activity' },
  { title: 'Service status', href: paths.shellApi, summary: 'The API’s status answer in full.', icon: 'server' },
  { title: 'Empty state', href: paths.shellEmpty, summary: 'What a page with nothing in it looks like.', icon: 'panel' },
  { title: 'Container layout', href: paths.shellContain, summary: 'Cards that lay themselves out by their own width.', icon: 'panel' },
  // The app's own check-up and toy: for the people who work here, never offered to a diner (0061).
  { title: 'Self-test', href: paths.selfTest, summary: 'Check the API, your session, live events and storage from this browser.', only: WORKERS, icon: 'test' },
  { title: 'Windphony', href: paths.windphony, summary: 'A wind-chime you play with the keyboard or the mouse.', only: WORKERS, icon: 'chime' },
  { title: 'Counter', href: paths.counter, summary: 'A tally that keeps its count while you move around the app.', icon: 'counter' },
  { title: 'Side panel', href: paths.sidepanel, summary: 'The venue spaces, each opening its details in a side panel.', icon: 'panel' },
  { title: 'Arcos', href: paths.arcos, summary: 'Nested routes: a list beside the detail it opens.', icon: 'arch' },
]);

/** Who the session says it is: a role, a visitor (nobody signed in), or undefined while it is still being asked. */
export const audienceOf = (user: SessionUser | null | undefined): Audience | undefined => (user === undefined ? undefined : (user?.role ?? 'visitor'));

/** The areas `audience` may open (none while it is not known: a signed-in desk never sees a visitor's menu flash by). */
export const areasFor = (list: readonly Area[], audience: Audience | undefined): Area[] => (audience ? list.filter((area) => area.for.includes(audience)) : []);

/** The header's links for `audience` (none while it is not known): a visitor's are the diner's pages. */
export const navFor = (audience: Audience | undefined): Area[] => (audience ? [...dinerPages, ...areas].filter((area) => area.nav?.includes(audience)) : []);

/** Who is using the app now (the header's session read, shared through the cache); undefined until it has answered. */
export function useAudience(): Audience | undefined {
  return audienceOf(useRead(sessionRead).data);
}

/** The screens that show the app's loading and error states, for checking them on purpose. */
export const diagnostics: Area[] = withAudience([
  { title: 'Slow page', href: paths.pending, summary: 'Waits 5 seconds before showing: the loading overlay.', icon: 'clock' },
  { title: 'Failing page', href: paths.error, summary: 'Its loader always throws: the error screen.', icon: 'alert' },
  { title: 'Server error', href: paths.bad, summary: 'Calls an API that answers 500: the error screen with the problem.', icon: 'alert' },
]);
