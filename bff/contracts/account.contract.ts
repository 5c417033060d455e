import * as v from 'valibot';
import { RoleSchema, SessionUserSchema } from './auth.contract';
import { IdParamSchema, NoContentSchema, atMost, requiredText } from './common.contract';
import { endpoint } from './endpoint.contract';
import { NewPasswordSchema, PersonNameSchema } from './team.contract';
import { AuthenticationResponseSchema, NewPasskeySchema, RegistrationResponseSchema, WebAuthnOptionsSchema } from './webauthn.contract';

export { AuthenticationResponseSchema, RegistrationResponseSchema, WebAuthnOptionsSchema };

/**
 * Each person's own account (issue 49): their name and password, where they are signed in, and their
 * passkeys. Any signed-in account calls these about itself; nobody else's is reachable here.
 */

/** One place a person is signed in. */
export const OwnSessionSchema = v.object({
  id: v.number(),
  /** The browser and system in words ("Chrome on Android"), from its User-Agent. */
  browser: v.string(),
  /** The address it signed in from (as the BFF sees it behind `TRUST_PROXY`). */
  address: v.string(),
  signedInAt: v.string(),
  /** The last request seen (kept to the minute). */
  lastSeenAt: v.string(),
  /** This browser's own session. */
  current: v.boolean(),
});
export type OwnSession = v.InferOutput<typeof OwnSessionSchema>;

export const PasskeySchema = v.object({
  id: v.number(),
  name: v.string(),
  createdAt: v.string(),
  lastUsedAt: v.nullable(v.string()),
  /** Synced by its provider to the person's other devices (a multi-device credential). */
  backedUp: v.boolean(),
});
export type Passkey = v.InferOutput<typeof PasskeySchema>;

export const OwnAccountSchema = v.object({
  id: v.number(),
  email: v.string(),
  name: v.string(),
  role: RoleSchema,
  createdAt: v.string(),
  /** False for someone who joined with a passkey only: changing the password then asks for none. */
  hasPassword: v.boolean(),
  sessions: v.array(OwnSessionSchema),
  passkeys: v.array(PasskeySchema),
});
export type OwnAccount = v.InferOutput<typeof OwnAccountSchema>;

export const ChangeNameSchema = v.object({ name: PersonNameSchema });

export const ChangePasswordSchema = v.object({
  /** Required when the account has a password. */
  currentPassword: v.optional(v.pipe(v.string('Enter your current password'), v.maxLength(1024, atMost(1024)))),
  newPassword: NewPasswordSchema,
});
export type ChangePassword = v.InferInput<typeof ChangePasswordSchema>;

export const EndedSessionsSchema = v.object({ ended: v.number() });

export const PasskeyNameSchema = v.object({ name: requiredText('Name this passkey', 60) });

export const AddPasskeySchema = NewPasskeySchema;
export const PasskeySignInSchema = v.object({ response: AuthenticationResponseSchema });

export const accountApi = {
  get: endpoint({ method: 'GET', path: '/api/account', summary: 'Your account: name, role, where you are signed in, your passkeys', access: 'user', response: OwnAccountSchema }),
  changeName: endpoint({ method: 'PATCH', path: '/api/account', summary: 'Change your name', access: 'user', body: ChangeNameSchema, response: SessionUserSchema }),
  changePassword: endpoint({
    method: 'PUT',
    path: '/api/account/password',
    summary: 'Change your password (your current one required); your other sessions end',
    access: 'user',
    body: ChangePasswordSchema,
    response: EndedSessionsSchema,
    errors: [429],
  }),
  endSession: endpoint({ method: 'DELETE', path: '/api/account/sessions/:id', summary: 'Sign out one of your sessions', access: 'user', params: IdParamSchema, response: NoContentSchema, status: 204, errors: [404] }),
  endOtherSessions: endpoint({ method: 'POST', path: '/api/account/sessions/end-others', summary: 'Sign out everywhere else', access: 'user', response: EndedSessionsSchema }),
  passkeyOptions: endpoint({ method: 'POST', path: '/api/account/passkeys/options', summary: 'Options to create a passkey for your account (a fresh challenge)', access: 'user', response: WebAuthnOptionsSchema }),
  addPasskey: endpoint({ method: 'POST', path: '/api/account/passkeys', summary: 'Keep a passkey the browser created (origin, RP id and challenge checked)', access: 'user', body: AddPasskeySchema, response: PasskeySchema, status: 201, errors: [409] }),
  renamePasskey: endpoint({ method: 'PATCH', path: '/api/account/passkeys/:id', summary: 'Rename one of your passkeys', access: 'user', params: IdParamSchema, body: PasskeyNameSchema, response: PasskeySchema, errors: [404] }),
  removePasskey: endpoint({ method: 'DELETE', path: '/api/account/passkeys/:id', summary: 'Remove one of your passkeys (not your only way to sign in)', access: 'user', params: IdParamSchema, response: NoContentSchema, status: 204, errors: [404, 409] }),
};

/** Signing in with a passkey: no account needed to ask. */
export const passkeyLoginApi = {
  options: endpoint({ method: 'POST', path: '/api/auth/passkey/options', summary: 'A challenge to sign in with a passkey (discoverable: no email asked)', access: 'public', response: WebAuthnOptionsSchema, errors: [429] }),
  signIn: endpoint({ method: 'POST', path: '/api/auth/passkey', summary: 'Sign in with a passkey (sets `sid`); 401 for an unknown or refused one', access: 'public', body: PasskeySignInSchema, response: v.object({ user: SessionUserSchema }), errors: [401, 429] }),
};
