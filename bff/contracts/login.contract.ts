import * as v from 'valibot';
import { AuthResponseSchema } from './auth.contract';
import { EmailSchema, atMost } from './common.contract';
import { endpoint } from './endpoint.contract';

/** Signing in: apart from the session reads (auth.contract.ts), so the app's first screen does not carry the login form's checks. */
export const LoginRequestSchema = v.object({
  email: EmailSchema,
  password: v.pipe(v.string('Enter your password'), v.nonEmpty('Enter your password'), v.maxLength(1024, atMost(1024))),
});
export type LoginRequest = v.InferOutput<typeof LoginRequestSchema>;

export const loginApi = {
  login: endpoint({
    method: 'POST',
    path: '/api/auth/login',
    summary: 'Sign in: sets the httpOnly `sid` session cookie; 403 for the right password of a deactivated account',
    access: 'public',
    body: LoginRequestSchema,
    response: AuthResponseSchema,
    errors: [401, 403, 429],
  }),
};
