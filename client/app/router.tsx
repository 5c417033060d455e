import { createBrowserRouter, data, redirect } from 'react-router';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { registerPreloadRoutes } from '@/lib/app-link';
import { SHELL_ROUTE_ID, shellLoader } from '@/lib/session';
import { pageRoute, sessionGate } from '@/lib/page-guard';
import { pages } from '@pages/pages';
import { RootErrorBoundary, RouteErrorBoundary } from './error-boundaries';
import { RootLayout } from './root-layout';
import { HydrateFallback } from './pending-overlay';
import { paths } from '@/lib/paths';

/**
 * The route table. The layout, the error boundaries and the pending overlay are static (every page
 * runs them: in the entry they cost no request of their own); every screen loads lazily, from
 * `features/<area>/*.route.tsx` (which exports loader/action/Component/handle).
 * A new area adds its routes here and its entry in lib/areas.ts (who may open it, whose header lists it).
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RootErrorBoundary,
    HydrateFallback,
    // Who may open each page is its `for` in pages/pages.ts: a page behind a session asks who is signed in first.
    middleware: [sessionGate],
    children: [
      {
        // Pathless: errors of any screen render inside the layout, header and all.
        ErrorBoundary: RouteErrorBoundary,
        children: [
          { index: true, lazy: pageRoute(pages.home, () => import('@/features/home/home.route')) },
          { path: 'about', lazy: pageRoute(pages.about, () => import('@/features/about/about.route')) },
          { path: 'counter', lazy: pageRoute(pages.counter, () => import('@/features/counter/counter.route')) },
          { path: 'sidepanel', lazy: pageRoute(pages.sidepanel, () => import('@/features/sidepanel/sidepanel.route')) },
          { path: 'test', lazy: pageRoute(pages.selfTest, () => import('@/features/selftest/selftest.route')) },
          { path: 'windphony', lazy: pageRoute(pages.windphony, () => import('@/features/windphony/windphony.route')) },
          { path: 'pending', lazy: pageRoute(pages.pending, () => import('@/features/demos/pending.route')) },
          { path: 'error', lazy: pageRoute(pages.error, () => import('@/features/demos/error.route')) },
          { path: 'bad', lazy: pageRoute(pages.bad, () => import('@/features/demos/bad.route')) },
          {
            path: 'arcos',
            lazy: pageRoute(pages.arcos, () => import('@/features/arcos/arcos-layout.route')),
            children: [
              { index: true, lazy: pageRoute(pages.arcos, () => import('@/features/arcos/arcos-index.route')) },
              { path: ':id', lazy: pageRoute(pages.arco, () => import('@/features/arcos/arco.route')) },
            ],
          },
          { path: 'login', lazy: pageRoute(pages.login, () => import('@/features/auth/login.route')) },
          // An invitation's and a password reset's links: the secret rides in the #fragment, which no server sees.
          { path: 'join', lazy: pageRoute(pages.join, () => import('@/features/team/join.route')) },
          { path: 'reset', lazy: pageRoute(pages.resetPassword, () => import('@/features/team/reset.route')) },
          {
            path: 'gymowners',
            lazy: pageRoute(pages.gymOwners, () => import('@/features/gym/owners-layout.route')),
            children: [
              { index: true, lazy: pageRoute(pages.gymOwners, () => import('@/features/gym/owners-list.route')) },
              { path: ':id', lazy: pageRoute(pages.gymOwner, () => import('@/features/gym/owner.route')) },
            ],
          },
          {
            id: SHELL_ROUTE_ID,
            path: 'shell',
            // Every page of the shell is for someone signed in (the session gate asks first); the layout's loader hands them the user.
            loader: shellLoader,
            lazy: () => import('@/features/shell/shell-layout.route'),
            children: [
              {
                // Pathless: a page of the shell that fails (a 403 for a role, a load error) shows inside the shell, its tabs kept.
                ErrorBoundary: RouteErrorBoundary,
                children: [
                  { index: true, lazy: pageRoute(pages.shell, () => import('@/features/shell/shell-index.route')) },
                  { path: 'api', lazy: pageRoute(pages.shellApi, () => import('@/features/shell/shell-api.route')) },
                  { path: 'empty', lazy: pageRoute(pages.shellEmpty, () => import('@/features/shell/shell-empty.route')) },
                  { path: 'contain', lazy: pageRoute(pages.shellContain, () => import('@/features/shell/shell-contain.route')) },
                  // Who changed what (admins).
                  { path: 'audit', lazy: pageRoute(pages.shellAudit, () => import('@/features/audit/audit-trail.route')) },
                  // The team (admins): invitations, roles, deactivation, reset links; and each person's own account.
                  { path: 'team', lazy: pageRoute(pages.team, () => import('@/features/team/team.route')) },
                  // Operations (admins): backups, and how long records are kept.
                  { path: 'operations', lazy: pageRoute(pages.operations, () => import('@/features/operations/operations.route')) },
                  { path: 'account', lazy: pageRoute(pages.account, () => import('@/features/account/account.route')) },
                  { path: 'sse', lazy: pageRoute(pages.shellSse, () => import('@/features/live/sse-viewer.route')) },
                  {
                    // Staff chat: one channel list and thread cache in three layouts; runners read the channels open to them.
                    path: 'chat',
                    children: [
                      { index: true, lazy: pageRoute(pages.chat, () => import('@/features/chat/chat.route')) },
                      { path: 'grid', lazy: pageRoute(pages.chatGrid, () => import('@/features/chat/chat-grid.route')) },
                      { path: 'flex', lazy: pageRoute(pages.chatFlex, () => import('@/features/chat/chat-flex.route')) },
                    ],
                  },
                  // The door events; files for the front desk, one with a progress bar, or many by drag-and-drop, resumable over tus.
                  { path: 'webhook', lazy: pageRoute(pages.shellWebhook, () => import('@/features/webhooks/webhook-inbox.route')) },
                  { path: 'upload/1', lazy: pageRoute(pages.uploadOne, () => import('@/features/uploads/upload-one.route')) },
                  { path: 'upload/2', lazy: pageRoute(pages.uploadMany, () => import('@/features/uploads/upload-many.route')) },
                  {
                    // JSONPlaceholder's posts (staff): six a page with a fake missing post first, a post and its author, its comments.
                    path: 'posts',
                    children: [
                      { index: true, lazy: pageRoute(pages.posts, () => import('@/features/samples/posts-list.route')) },
                      { path: ':postId', lazy: pageRoute(pages.post, () => import('@/features/samples/post.route')) },
                      { path: ':postId/deep', lazy: pageRoute(pages.postDeep, () => import('@/features/samples/post-deep.route')) },
                    ],
                  },
                  {
                    // Guest conversations answered by the front desk: the list, and a thread beside it.
                    path: 'nuhs/basic',
                    lazy: pageRoute(pages.conversations, () => import('@/features/conversations/conversations-layout.route')),
                    children: [
                      { index: true, lazy: pageRoute(pages.conversations, () => import('@/features/conversations/conversations-index.route')) },
                      { path: ':conversationId', lazy: pageRoute(pages.conversation, () => import('@/features/conversations/conversation.route')) },
                    ],
                  },
                  {
                    path: 'gymowner/users',
                    children: [
                      { index: true, lazy: pageRoute(pages.gymMembers, () => import('@/features/gym/members-list.route')) },
                      { path: 'import', lazy: pageRoute(pages.gymMembersImport, () => import('@/features/gym/member-import.route')) },
                      {
                        id: 'gym-member', // MEMBER_ROUTE_ID: the tabs read the member from this loader
                        path: ':id',
                        lazy: pageRoute(pages.gymMember, () => import('@/features/gym/member-layout.route')),
                        children: [
                          { index: true, lazy: pageRoute(pages.gymMember, () => import('@/features/gym/member-profile.route')) },
                          { path: 'unlocks', lazy: pageRoute(pages.gymMemberUnlocks, () => import('@/features/gym/member-unlocks.route')) },
                          { path: 'group_links', lazy: pageRoute(pages.gymMemberLinks, () => import('@/features/gym/member-links.route')) },
                        ],
                      },
                    ],
                  },
                ],
              },
            ],
          },
          {
            path: 'kisi',
            // Kisi door access, for admins.
            lazy: pageRoute(pages.kisi, () => import('@/features/kisi/kisi-layout.route')),
            children: [
              { index: true, Component: () => null, loader: () => redirect(paths.kisiUsers) },
              { path: 'users', lazy: pageRoute(pages.kisiUsers, () => import('@/features/kisi/kisi-users.route')) },
              { path: 'users/:user_id', lazy: pageRoute(pages.kisiUser, () => import('@/features/kisi/kisi-user.route')) },
              { path: 'members', lazy: pageRoute(pages.kisiMembers, () => import('@/features/kisi/kisi-members.route')) },
              { path: 'groups', lazy: pageRoute(pages.kisiGroups, () => import('@/features/kisi/kisi-groups.route')) },
              { path: 'group_links', lazy: pageRoute(pages.kisiGroupLinks, () => import('@/features/kisi/kisi-group-links.route')) },
              { path: 'locks', lazy: pageRoute(pages.kisiLocks, () => import('@/features/kisi/kisi-locks.route')) },
            ],
          },
          {
            // The food court: stalls and menus are public (staff also change them), diners order
            // without an account; runners work the board and the kitchen screens.
            path: 'pt',
            lazy: pageRoute(pages.pt, () => import('@/features/pt/pt-layout.route')),
            children: [
              { index: true, Component: () => null, loader: () => redirect(paths.ptStalls) },
              { path: 'stalls', lazy: pageRoute(pages.ptStalls, () => import('@/features/pt/stalls-list.route')) },
              { path: 'stalls/:id', lazy: pageRoute(pages.ptStall, () => import('@/features/pt/stall.route')) },
              { path: 'diner/menu', lazy: pageRoute(pages.ptDinerMenu, () => import('@/features/pt/diner-menu.route')) },
              { path: 'diner/cart', lazy: pageRoute(pages.ptCart, () => import('@/features/pt/cart.route')) },
              { path: 'diner/order', lazy: pageRoute(pages.ptOrder, () => import('@/features/pt/diner-order.route')) },
              { path: 'runner', lazy: pageRoute(pages.ptRunner, () => import('@/features/pt/runner-board.route')) },
              // A stall's kitchen screen (a tablet by the pass), and the list to pick the stall from.
              { path: 'kitchen', lazy: pageRoute(pages.ptKitchens, () => import('@/features/pt/kitchen-picker.route')) },
              { path: 'kitchen/:stallId', lazy: pageRoute(pages.ptKitchen, () => import('@/features/pt/kitchen.route')) },
              { path: 'tables', lazy: pageRoute(pages.ptTables, () => import('@/features/pt/table-codes.route')) },
              // Its chart code and styles load with it alone.
              { path: 'reports', lazy: pageRoute(pages.ptReports, () => import('@/features/pt/reports.route')) },
            ],
          },
          // The parts catalogue, public: search pieces, a piece's parts by category, where a part is used.
          { path: 'pieces', lazy: pageRoute(pages.pieces, () => import('@/features/catalogue/pieces-list.route')) },
          { path: 'pieces/:id', lazy: pageRoute(pages.piece, () => import('@/features/catalogue/piece.route')) },
          { path: 'parts/:id', lazy: pageRoute(pages.part, () => import('@/features/catalogue/part.route')) },
          // Sample pages on public APIs, through the BFF: Rick and Morty's characters, the Pokédex and its quiz.
          { path: 'rick', lazy: pageRoute(pages.rick, () => import('@/features/samples/rick.route')) },
          { path: 'pokemon', lazy: pageRoute(pages.pokemonList, () => import('@/features/samples/pokemon-list.route')) },
          { path: 'pokemon/:idOrName', lazy: pageRoute(pages.pokemon, () => import('@/features/samples/pokemon.route')) },
          { path: 'quesg', lazy: pageRoute(pages.quiz, () => import('@/features/samples/quiz.route')) },
          // A guest (diner or gym member) asks the front desk for help and follows the answers.
          { path: 'help', lazy: pageRoute(pages.help, () => import('@/features/conversations/help.route')) },
          {
            path: '*',
            Component: () => null, // never renders: the loader always throws the 404
            loader: ({ url }: LoaderFunctionArgs) => {
              throw data(`No route matches URL "${url.pathname}"`, { status: 404, statusText: 'Not Found' });
            },
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  registerPreloadRoutes(routes);
  return createBrowserRouter(routes);
}
