import * as v from 'valibot';
import { atMost } from './common.contract';
import { endpoint, NoContentSchema, ROLES } from './endpoint.contract';

export const RoleSchema = v.picklist(ROLES, 'Expected one of admin, staff, runner');

export const EmailSchema = v.pipe(
  v.string('Enter an email address'),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty('Enter an email address'),
  v.maxLength(254, atMost(254)),
  v.email('Enter an email address such as name@example.com'),
);

export const LoginRequestSchema = v.object({
  email: EmailSchema,
  password: v.pipe(v.string('Enter your password'), v.nonEmpty('Enter your password'), v.maxLength(1024, atMost(1024))),
});
export type LoginRequest = v.InferOutput<typeof LoginRequestSchema>;

export const SessionUserSchema = v.object({
  id: v.number(),
  email: v.string(),
  name: v.string(),
  role: RoleSchema,
});
export type SessionUser = v.InferOutput<typeof SessionUserSchema>;

/** `GET /api/auth/getAuth` and `POST /api/auth/login` answer this. */
export const AuthResponseSchema = v.object({ user: SessionUserSchema });
export type AuthResponse = v.InferOutput<typeof AuthResponseSchema>;

/** Signing in, apart from the session reads so the app's first screen does not carry the login form's checks. */
export const loginApi = {
  login: endpoint({
    method: 'POST',
    path: '/api/auth/login',
    summary: 'Sign in: sets the httpOnly `sid` session cookie',
    access: 'public',
    body: LoginRequestSchema,
    response: AuthResponseSchema,
    errors: [401, 429],
  }),
};

export const authApi = {
  logout: endpoint({ method: 'POST', path: '/api/auth/logout', summary: 'Sign out: ends the session and clears its cookie', access: 'public', response: NoContentSchema, status: 204 }),
  getAuth: endpoint({ method: 'GET', path: '/api/auth/getAuth', summary: 'Who is signed in (401 when nobody)', access: 'user', response: AuthResponseSchema }),
};
