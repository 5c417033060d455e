import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';

/**
 * The browser's half of passkeys (WebAuthn, through `@simplewebauthn/browser`), loaded the first time
 * a passkey is asked for: the login form's first screen and the account page's first paint carry none
 * of it. The server's options are `accountApi.passkeyOptions` / `passkeyLoginApi.options` answers.
 */
const browserLibrary = () => import('@simplewebauthn/browser');

/** The options JSON as the contract types it (a loose object with a challenge): the library reads the rest. */
type OptionsJSON = { challenge: string };

/**
 * Whether this browser can use passkeys here at all: it knows WebAuthn, and the page is a secure
 * context (https, or http://localhost). Synchronous, without the library (its own check is this one).
 */
export const passkeysSupported = (): boolean => typeof globalThis.PublicKeyCredential === 'function' && globalThis.isSecureContext !== false;

/** Creates a passkey with the browser's authenticator (a prompt the person answers). */
export async function createPasskey(options: OptionsJSON): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await browserLibrary();
  return startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
}

/**
 * Signs with a passkey the person picks: in a browser prompt, or with `autofill` in the email box's
 * suggestions (conditional mediation, which waits until one is picked and is cancelled by any other
 * passkey request or by `cancelPasskeyRequest`).
 */
export async function signWithPasskey(options: OptionsJSON, { autofill = false } = {}): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await browserLibrary();
  return startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON, useBrowserAutofill: autofill });
}

/** Whether the browser offers passkeys among the email box's suggestions (without loading the library when it cannot). */
export async function passkeyAutofillSupported(): Promise<boolean> {
  if (!passkeysSupported()) return false;
  const { browserSupportsWebAuthnAutofill } = await browserLibrary();
  return browserSupportsWebAuthnAutofill();
}

/** Ends a passkey request still waiting (the autofill one, when the page goes). */
export async function cancelPasskeyRequest(): Promise<void> {
  const { WebAuthnAbortService } = await browserLibrary();
  WebAuthnAbortService.cancelCeremony();
}

const nameOf = (error: unknown) => (error instanceof Error ? error.name : '');

/** The request was ended by the page itself (another passkey request replaced it): nothing to say. */
export const passkeyRequestReplaced = (error: unknown) => nameOf(error) === 'AbortError';

const UNSUPPORTED = 'This browser cannot use passkeys here. Passkeys need a current browser and the app opened at its https:// address (or localhost).';

/**
 * What went wrong with a passkey prompt, in words (`add`: creating one; `sign-in`: using one); the
 * browser's own errors, not the server's (those are ApiErrors, said by the caller).
 */
export function passkeyPromptMessage(error: unknown, purpose: 'add' | 'sign-in'): string {
  switch (nameOf(error)) {
    // Cancelled, timed out, or refused by the person or the device: the browser does not say which.
    case 'NotAllowedError':
      return purpose === 'add' ? 'No passkey was added: the request was cancelled or timed out.' : 'Signing in with a passkey was cancelled or timed out.';
    case 'InvalidStateError':
      return 'This device already holds a passkey for your account. Use that one, or add one from another device or password manager.';
    case 'SecurityError':
      return 'Passkeys work only at the app’s own name over https:// (or localhost), not at an IP address.';
    case 'NotSupportedError':
    case 'ConstraintError':
      return purpose === 'add' ? 'This device cannot keep a passkey for this app (it needs one that stays on the device and checks it is you).' : UNSUPPORTED;
    case 'AbortError':
      return purpose === 'add' ? 'No passkey was added: the request was stopped.' : 'Signing in with a passkey was stopped.';
    default:
      return error instanceof Error && error.message ? `The passkey request failed: ${error.message}` : UNSUPPORTED;
  }
}

export const PASSKEYS_UNSUPPORTED = UNSUPPORTED;

/** Devices a User-Agent names, most specific first (an iPad's may also say Mac OS X). */
const DEVICES: readonly (readonly [RegExp, string])[] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/Macintosh|Mac OS X/, 'Mac'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'Chromebook'],
  [/Linux/, 'Linux'],
];

/** A first name for a new passkey: what keeps it, as far as the browser tells (the account page lets the person change it). */
export function suggestedName(response: Pick<RegistrationResponseJSON, 'authenticatorAttachment'>, userAgent = globalThis.navigator?.userAgent ?? ''): string {
  if (response.authenticatorAttachment === 'cross-platform') return 'Security key or phone';
  const device = DEVICES.find(([pattern]) => pattern.test(userAgent))?.[1];
  return device ? `Passkey on ${device}` : 'My passkey';
}
