import * as v from 'valibot';
import { NoContentSchema } from './common.contract';
import { endpoint, ROLES } from './endpoint.contract';

/**
 * The session every screen asks about. Signing in is in login.contract.ts, so the app's first screen
 * (which loads this file) does not carry the login form's checks.
 */

export const RoleSchema = v.picklist(ROLES, 'Expected one of admin, staff, runner');

export const SessionUserSchema = v.object({
  id: v.number(),
  email: v.string(),
  name: v.string(),
  role: RoleSchema,
});
export type SessionUser = v.InferOutput<typeof SessionUserSchema>;

/** `GET /api/auth/getAuth` and `POST /api/auth/login` (login.contract.ts) answer this. */
export const AuthResponseSchema = v.object({ user: SessionUserSchema });
export type AuthResponse = v.InferOutput<typeof AuthResponseSchema>;

/** `GET /api/auth/session`: who is signed in, `null` for a visitor (not an error: most visitors are not signed in). */
export const SessionResponseSchema = v.object({ user: v.nullable(SessionUserSchema) });

export const authApi = {
  logout: endpoint({ method: 'POST', path: '/api/auth/logout', summary: 'Sign out: ends the session and clears its cookie', access: 'public', response: NoContentSchema, status: 204 }),
  getAuth: endpoint({ method: 'GET', path: '/api/auth/getAuth', summary: 'Who is signed in (401 when nobody)', access: 'user', response: AuthResponseSchema }),
  /** What the app asks (docs/decisions/0066): a visitor's page asks it on every first load, and a 401 there is a console error in every browser. */
  session: endpoint({ method: 'GET', path: '/api/auth/session', summary: 'Who is signed in (user null when nobody)', access: 'public', response: SessionResponseSchema }),
};
