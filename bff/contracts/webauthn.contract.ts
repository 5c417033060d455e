import * as v from 'valibot';
import { requiredText } from './common.contract';

/**
 * WebAuthn's JSON as `@simplewebauthn/browser` sends it: checked in depth by `@simplewebauthn/server`
 * (origin, RP id, challenge, signature, counter), here only for shape and size. Shared by the
 * account's passkeys (account.contract.ts) and joining with one (team.contract.ts). The words are
 * a browser's answer gone wrong, not a person's typing: a person sees them only from a broken client.
 */
const b64url = (max: number) =>
  v.pipe(v.string('Expected base64url text'), v.maxLength(max, `Expected at most ${max} characters`), v.regex(/^[A-Za-z0-9_-]*={0,2}$/, 'Expected base64url'));
const PublicKeyTypeSchema = v.literal('public-key', 'Expected public-key');
const AuthenticatorAttachmentSchema = v.picklist(['platform', 'cross-platform'], 'Expected platform or cross-platform');
/**
 * The extensions' answers: none is asked for, so none is kept (an object of any keys is accepted and
 * read as empty; the library's own type, an interface, fits `{}` where it would not fit a record).
 */
const ExtensionResultsSchema = v.optional(v.object({}), {});

export const RegistrationResponseSchema = v.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: PublicKeyTypeSchema,
  response: v.object({
    clientDataJSON: b64url(8000),
    attestationObject: b64url(16000),
    authenticatorData: v.optional(b64url(16000)),
    transports: v.optional(
      v.pipe(
        v.array(v.pipe(v.string('Expected a transport’s name'), v.maxLength(32, 'Expected at most 32 characters')), 'Expected a list of transports'),
        v.maxLength(10, 'Expected at most 10 transports'),
      ),
    ),
    publicKeyAlgorithm: v.optional(v.pipe(v.number('Expected a COSE algorithm number'), v.integer('Expected a COSE algorithm number'))),
    publicKey: v.optional(b64url(8000)),
  }),
  authenticatorAttachment: v.optional(AuthenticatorAttachmentSchema),
  clientExtensionResults: ExtensionResultsSchema,
});

export const AuthenticationResponseSchema = v.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: PublicKeyTypeSchema,
  response: v.object({ clientDataJSON: b64url(8000), authenticatorData: b64url(8000), signature: b64url(2000), userHandle: v.optional(b64url(200)) }),
  authenticatorAttachment: v.optional(AuthenticatorAttachmentSchema),
  clientExtensionResults: ExtensionResultsSchema,
});

/** Options for `navigator.credentials.create/get`, as `@simplewebauthn/server` makes them (the browser library reads them). */
export const WebAuthnOptionsSchema = v.looseObject({ challenge: v.string() });

/** A passkey the browser just made, with the name its owner knows it by. */
export const NewPasskeySchema = v.object({ name: requiredText('Name this passkey', 60), response: RegistrationResponseSchema });
