import { createBrowserRouter, data, redirect } from 'react-router';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { registerPreloadRoutes } from '@/lib/app-link';
import { SHELL_ROUTE_ID, requireAdmin, requireRunner, requireStaff, requireUser, runnersAndStaffOnly, shellLoader, staffOnly } from '@/lib/session';
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
    children: [
      {
        // Pathless: errors of any screen render inside the layout, header and all.
        ErrorBoundary: RouteErrorBoundary,
        children: [
          { index: true, lazy: () => import('@/features/home/home.route') },
          { path: 'about', lazy: () => import('@/features/about/about.route') },
          { path: 'counter', lazy: () => import('@/features/counter/counter.route') },
          { path: 'sidepanel', lazy: () => import('@/features/sidepanel/sidepanel.route') },
          { path: 'test', lazy: () => import('@/features/selftest/selftest.route') },
          { path: 'windphony', lazy: () => import('@/features/windphony/windphony.route') },
          { path: 'pending', lazy: () => import('@/features/demos/pending.route') },
          { path: 'error', lazy: () => import('@/features/demos/error.route') },
          { path: 'bad', lazy: () => import('@/features/demos/bad.route') },
          {
            path: 'arcos',
            lazy: () => import('@/features/arcos/arcos-layout.route'),
            children: [
              { index: true, lazy: () => import('@/features/arcos/arcos-index.route') },
              { path: ':id', lazy: () => import('@/features/arcos/arco.route') },
            ],
          },
          { path: 'login', lazy: () => import('@/features/auth/login.route') },
          {
            path: 'gymowners',
            // The gym API needs a staff session: ask who the user is before the loaders run.
            middleware: [requireUser],
            lazy: () => import('@/features/gym/owners-layout.route'),
            children: [
              { index: true, lazy: () => import('@/features/gym/owners-list.route') },
              { path: ':id', lazy: () => import('@/features/gym/owner.route') },
            ],
          },
          {
            id: SHELL_ROUTE_ID,
            path: 'shell',
            // Asks the server who the user is before any loader of the shell runs.
            middleware: [requireUser],
            loader: shellLoader,
            lazy: () => import('@/features/shell/shell-layout.route'),
            children: [
              {
                // Pathless: a page of the shell that fails (a 403 for a role, a load error) shows inside the shell, its tabs kept.
                ErrorBoundary: RouteErrorBoundary,
                children: [
                  { index: true, lazy: () => import('@/features/shell/shell-index.route') },
                  { path: 'api', lazy: () => import('@/features/shell/shell-api.route') },
                  { path: 'empty', lazy: () => import('@/features/shell/shell-empty.route') },
                  { path: 'contain', lazy: () => import('@/features/shell/shell-contain.route') },
                  // Who changed what (admins): its loader says 403 to anyone else before it asks the API.
                  { path: 'audit', lazy: () => import('@/features/audit/audit-trail.route') },
                  { path: 'sse', lazy: () => import('@/features/live/sse-viewer.route') },
                  {
                    // Staff chat: one channel list and thread cache in three layouts; runners read the channels open to them.
                    path: 'chat',
                    loader: runnersAndStaffOnly,
                    children: [
                      { index: true, lazy: () => import('@/features/chat/chat.route') },
                      { path: 'grid', lazy: () => import('@/features/chat/chat-grid.route') },
                      { path: 'flex', lazy: () => import('@/features/chat/chat-flex.route') },
                    ],
                  },
                  {
                    // Staff pages whose API is the desk's: anyone else gets the shell's 403 screen before it asks.
                    // The door events; files for the front desk, one with a progress bar, or many by drag-and-drop,
                    // resumable over tus. Pathless, so /shell/upload itself is no page (with a path it would match, an empty shell).
                    loader: staffOnly,
                    children: [
                      { path: 'webhook', lazy: () => import('@/features/webhooks/webhook-inbox.route') },
                      { path: 'upload/1', lazy: () => import('@/features/uploads/upload-one.route') },
                      { path: 'upload/2', lazy: () => import('@/features/uploads/upload-many.route') },
                    ],
                  },
                  {
                    // JSONPlaceholder's posts (staff): six a page with a fake missing post first, a post and its author, its comments.
                    path: 'posts',
                    loader: staffOnly,
                    children: [
                      { index: true, lazy: () => import('@/features/samples/posts-list.route') },
                      { path: ':postId', lazy: () => import('@/features/samples/post.route') },
                      { path: ':postId/deep', lazy: () => import('@/features/samples/post-deep.route') },
                    ],
                  },
                  {
                    // Guest conversations answered by the front desk: the list, and a thread beside it. Pathless around
                    // it, so the role check is a loader of its own (its layout's module brings the list's loader).
                    loader: staffOnly,
                    children: [
                      {
                        path: 'nuhs/basic',
                        lazy: () => import('@/features/conversations/conversations-layout.route'),
                        children: [
                          { index: true, lazy: () => import('@/features/conversations/conversations-index.route') },
                          { path: ':conversationId', lazy: () => import('@/features/conversations/conversation.route') },
                        ],
                      },
                    ],
                  },
                  {
                    path: 'gymowner/users',
                    loader: staffOnly,
                    children: [
                      { index: true, lazy: () => import('@/features/gym/members-list.route') },
                      {
                        id: 'gym-member', // MEMBER_ROUTE_ID: the tabs read the member from this loader
                        path: ':id',
                        lazy: () => import('@/features/gym/member-layout.route'),
                        children: [
                          { index: true, lazy: () => import('@/features/gym/member-profile.route') },
                          { path: 'unlocks', lazy: () => import('@/features/gym/member-unlocks.route') },
                          { path: 'group_links', lazy: () => import('@/features/gym/member-links.route') },
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
            // Kisi door access is for admins: who is signed in, then the role, before any loader asks Kisi.
            middleware: [requireUser, requireAdmin],
            lazy: () => import('@/features/kisi/kisi-layout.route'),
            children: [
              { index: true, Component: () => null, loader: () => redirect(paths.kisiUsers) },
              { path: 'users', lazy: () => import('@/features/kisi/kisi-users.route') },
              { path: 'users/:user_id', lazy: () => import('@/features/kisi/kisi-user.route') },
              { path: 'members', lazy: () => import('@/features/kisi/kisi-members.route') },
              { path: 'groups', lazy: () => import('@/features/kisi/kisi-groups.route') },
              { path: 'group_links', lazy: () => import('@/features/kisi/kisi-group-links.route') },
              { path: 'locks', lazy: () => import('@/features/kisi/kisi-locks.route') },
            ],
          },
          {
            // The food court: stalls and menus are public (staff also change them), diners order
            // without an account; the runner board and the QR sheet ask who is signed in first.
            path: 'pt',
            lazy: () => import('@/features/pt/pt-layout.route'),
            children: [
              { index: true, Component: () => null, loader: () => redirect(paths.ptStalls) },
              { path: 'stalls', lazy: () => import('@/features/pt/stalls-list.route') },
              { path: 'stalls/:id', lazy: () => import('@/features/pt/stall.route') },
              { path: 'diner/menu', lazy: () => import('@/features/pt/diner-menu.route') },
              { path: 'diner/cart', lazy: () => import('@/features/pt/cart.route') },
              { path: 'diner/order', lazy: () => import('@/features/pt/diner-order.route') },
              { path: 'runner', middleware: [requireUser, requireRunner], lazy: () => import('@/features/pt/runner-board.route') },
              // A stall's kitchen screen (a tablet by the pass), and the list to pick the stall from.
              { path: 'kitchen', middleware: [requireUser, requireRunner], lazy: () => import('@/features/pt/kitchen-picker.route') },
              { path: 'kitchen/:stallId', middleware: [requireUser, requireRunner], lazy: () => import('@/features/pt/kitchen.route') },
              { path: 'tables', middleware: [requireUser, requireStaff], lazy: () => import('@/features/pt/table-codes.route') },
              // Its chart code and styles load with it alone.
              { path: 'reports', middleware: [requireUser, requireStaff], lazy: () => import('@/features/pt/reports.route') },
            ],
          },
          // The parts catalogue, public: search pieces, a piece's parts by category, where a part is used.
          { path: 'pieces', lazy: () => import('@/features/catalogue/pieces-list.route') },
          { path: 'pieces/:id', lazy: () => import('@/features/catalogue/piece.route') },
          { path: 'parts/:id', lazy: () => import('@/features/catalogue/part.route') },
          // Sample pages on public APIs, through the BFF: Rick and Morty's characters, the Pokédex and its quiz.
          { path: 'rick', lazy: () => import('@/features/samples/rick.route') },
          { path: 'pokemon', lazy: () => import('@/features/samples/pokemon-list.route') },
          { path: 'pokemon/:idOrName', lazy: () => import('@/features/samples/pokemon.route') },
          { path: 'quesg', lazy: () => import('@/features/samples/quiz.route') },
          // A guest (diner or gym member) asks the front desk for help and follows the answers.
          { path: 'help', lazy: () => import('@/features/conversations/help.route') },
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
