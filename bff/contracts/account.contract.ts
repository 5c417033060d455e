import * as v from 'valibot';
import { RoleSchema, SessionUserSchema } from './auth.contract';
import { IdParamSchema, NoContentSchema, atMost, requiredText } from './common.contract';
import { endpoint } from './endpoint.contract';
import { NewPasswordSchema, PersonNameSchema } from './team.contract';

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

/**
 * WebAuthn's JSON as `@simplewebauthn/browser` sends it: checked in depth by `@simplewebauthn/server`
 * (origin, RP id, challenge, signature, counter), here only for shape and size.
 */
/** The browser writes these fields, not a person: one message says its answer is not one we can read. */
const UNREADABLE = "The browser's passkey answer could not be read: try again.";
const b64url = (max: number) => v.pipe(v.string(UNREADABLE), v.maxLength(max, UNREADABLE), v.regex(/^[A-Za-z0-9_-]*={0,2}$/, UNREADABLE));
const AuthenticatorAttachmentSchema = v.picklist(['platform', 'cross-platform'], UNREADABLE);
/**
 * The extensions' answers: none is asked for, so none is kept (an object of any keys is accepted and
 * read as empty; the library's own type, an interface, fits `{}` where it would not fit a record).
 */
const ExtensionResultsSchema = v.optional(v.object({}), {});
export const RegistrationResponseSchema = v.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: v.literal('public-key', UNREADABLE),
  response: v.object({
    clientDataJSON: b64url(8000),
    attestationObject: b64url(16000),
    authenticatorData: v.optional(b64url(16000)),
    transports: v.optional(v.pipe(v.array(v.pipe(v.string(UNREADABLE), v.maxLength(32, UNREADABLE)), UNREADABLE), v.maxLength(10, UNREADABLE))),
    publicKeyAlgorithm: v.optional(v.pipe(v.number(UNREADABLE), v.integer(UNREADABLE))),
    publicKey: v.optional(b64url(8000)),
  }),
  authenticatorAttachment: v.optional(AuthenticatorAttachmentSchema),
  clientExtensionResults: ExtensionResultsSchema,
});
export const AuthenticationResponseSchema = v.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: v.literal('public-key', UNREADABLE),
  response: v.object({ clientDataJSON: b64url(8000), authenticatorData: b64url(8000), signature: b64url(2000), userHandle: v.optional(b64url(200)) }),
  authenticatorAttachment: v.optional(AuthenticatorAttachmentSchema),
  clientExtensionResults: ExtensionResultsSchema,
});

/** Options for `navigator.credentials.create/get`, as `@simplewebauthn/server` makes them (the browser library reads them). */
export const WebAuthnOptionsSchema = v.looseObject({ challenge: v.string() });

export const AddPasskeySchema = v.object({ name: requiredText('Name this passkey', 60), response: RegistrationResponseSchema });
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
