import type { authApi } from './auth.contract';
import { addressOf } from './endpoint.contract';
import type { statusApi } from './status.contract';

/**
 * The endpoints every first screen calls: who is signed in and signing out (the header), and the
 * service status (the home page). Their contracts (auth.contract.ts, status.contract.ts) spread these
 * methods and paths into their definitions, and the client calls them by the addresses below. This
 * module builds no schema, so the JavaScript of a first visit holds no valibot: the bundler puts a
 * library in one file, and valibot's held every check of every screen (docs/decisions/0088).
 */
export const firstScreenRoutes = {
  session: { method: 'GET', path: '/api/auth/session' },
  logout: { method: 'POST', path: '/api/auth/logout' },
  status: { method: 'GET', path: '/api' },
} as const;

/** The same endpoints as addresses, typed by their contracts. */
export const firstScreenApi = {
  session: addressOf<typeof authApi.session>(firstScreenRoutes.session),
  logout: addressOf<typeof authApi.logout>(firstScreenRoutes.logout),
  status: addressOf<typeof statusApi.status>(firstScreenRoutes.status),
};
