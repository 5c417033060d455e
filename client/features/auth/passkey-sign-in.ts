import { passkeyLoginApi } from '@contracts/account.contract';
import type { SessionUser } from '@contracts/auth.contract';
import { ApiError, NetworkError, errorMessage, isApiError } from '@/lib/api-client';
import { write } from '@/lib/endpoint-write';
import { passkeyPromptMessage, signWithPasskey } from '@/lib/passkeys';
import { setQueryData } from '@/lib/reads';
import { SESSION_KEY, announceSignIn } from '@/lib/session';

/**
 * Signing in with a passkey, fetched by the login page once it has painted: its contract and the
 * browser library stay off the page's first screen. A passkey signs in as a password does (the
 * session's cache entry, the other tabs told); the server's challenge is asked for first.
 */
const options = write(passkeyLoginApi.options);
const signIn = write(passkeyLoginApi.signIn, {
  apply: ({ user }) => {
    setQueryData(SESSION_KEY, user);
    announceSignIn();
  },
});

/** The person picked a passkey and the server refused it: they wait for an answer, even when they picked it among the suggestions. */
export class PasskeyRefused extends Error {
  override readonly name = 'PasskeyRefused';
}

/** Why a passkey did not sign in, in words: the server's refusal (an unknown passkey, one that did not pass), or the browser's. */
export function passkeyFailed(error: unknown): string {
  if (error instanceof PasskeyRefused) return error.message;
  if (isApiError(error, 401) || isApiError(error, 429)) return error.problem?.detail ?? error.message;
  if (error instanceof ApiError || error instanceof NetworkError) return `Could not sign in: ${errorMessage(error)}`;
  return passkeyPromptMessage(error, 'sign-in');
}

/**
 * A challenge from the server, the browser's prompt (or, with `autofill`, its suggestions in the
 * email box, which wait until one is picked), and the answer back. `picked` runs once the person has
 * picked a passkey; a refusal after that throws `PasskeyRefused` with the reason in words.
 */
export async function signInWithPasskey({ autofill, picked }: { autofill: boolean; picked: () => void }): Promise<SessionUser> {
  const response = await signWithPasskey(await options(), { autofill });
  picked();
  try {
    return (await signIn({ body: { response } })).user;
  } catch (error) {
    throw new PasskeyRefused(passkeyFailed(error));
  }
}
