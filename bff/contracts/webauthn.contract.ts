import * as v from 'valibot';
import { requiredText } from './common.contract';

/**
 * WebAuthn's JSON as `@simplewebauthn/browser` sends it: checked in depth by `@simplewebauthn/server`
 * (origin, RP id, challenge, signature, counter), here only for shape and size. Shared by the
 * account's passkeys (account.contract.ts) and joining with one (team.contract.ts).
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

/** A passkey the browser just made, with the name its owner knows it by. */
export const NewPasskeySchema = v.object({ name: requiredText('Name this passkey', 60), response: RegistrationResponseSchema });
