/**
 * The endpoints every first screen calls: who is signed in and signing out (the header), the
 * service status (the home page), and what waits in guest help (the staff shell's tab, on every shell
 * page: docs/decisions/0090). Their contracts (auth.contract.ts, status.contract.ts) spread these
 * methods and paths into their definitions, and the client calls them by addresses made from them
 * (client/lib/first-screen-api.ts). This module builds no schema, so the JavaScript of a first visit
 * holds no valibot: the bundler puts a library in one file, and valibot's held every check of every
 * screen (docs/decisions/0088).
 */
export const firstScreenRoutes = {
  session: { method: 'GET', path: '/api/auth/session' },
  logout: { method: 'POST', path: '/api/auth/logout' },
  status: { method: 'GET', path: '/api' },
  guestHelpWaiting: { method: 'GET', path: '/api/conversations/waiting' },
} as const;
