import type { SharedCounters } from '../../db/shared-limits';
import { HttpError } from '../../lib/http-error';

/**
 * How failed logins are answered (decision 0094: guessers stopped, people not locked out). Attempts
 * and failures are counted three ways, in counters every instance shares:
 * - per address and account: a few free failures, then every attempt from that address on that
 *   account waits before its password is checked, twice as long after each further failure; past
 *   the limit that address is refused on that account (429, before any check) until the window ends.
 *   The attempt is counted before its check, so attempts sent all at once are bounded too: the
 *   guesser at that address is stopped;
 * - per address, across accounts: past a high slowdown mark every attempt from the address waits,
 *   and past its ceiling a wrong password is answered 429 instead of 401;
 * - per account, from every address together: past a mark every attempt on the account waits a
 *   little longer (a few seconds at most), whoever makes it. Never a refusal: guessers at many
 *   addresses slow the account's sign-in down, and cannot keep its owner out of it.
 * The waits come before the check, so a guesser cannot learn the answer by giving up early. A
 * correct password signs in from any address but one stopped on that account: the front desk shares
 * one connection with whoever may be guessing at the next terminal, and a guesser elsewhere stops
 * nobody but themselves. A passkey sign-in is never counted here.
 */
export interface LoginLimits {
  /** How long failures are remembered. */
  windowMs: number;
  /** Failures one address may make on one account before its attempts on it wait. */
  freeFailuresPerAddressAndAccount: number;
  /** The first such wait; each further failure doubles it (up to `maxDelayMs`). */
  firstDelayMs: number;
  /** Failures one address may make on one account before it is refused on it until the window ends. */
  failuresPerAddressAndAccount: number;
  /** Failures on one account, from every address together, after which each attempt on it waits. */
  slowdownAfterPerAccount: number;
  /** That wait: `accountDelayStepMs` more per failure past the mark, up to `maxAccountDelayMs`. */
  accountDelayStepMs: number;
  maxAccountDelayMs: number;
  /** Failures from one address after which each of its attempts waits `delayStepMs` more per failure. */
  slowdownAfterPerAddress: number;
  delayStepMs: number;
  /** The longest wait an attempt is given. */
  maxDelayMs: number;
  /** Failures from one address after which its wrong passwords are answered 429. */
  ceilingPerAddress: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  windowMs: 15 * 60_000,
  freeFailuresPerAddressAndAccount: 5,
  firstDelayMs: 1_000,
  failuresPerAddressAndAccount: 10,
  slowdownAfterPerAccount: 10,
  accountDelayStepMs: 250,
  maxAccountDelayMs: 3_000,
  slowdownAfterPerAddress: 50,
  delayStepMs: 200,
  maxDelayMs: 10_000,
  ceilingPerAddress: 200,
};

const tooMany = (detail: string, waitMs: number) => {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new HttpError(429, detail.replace('{wait}', seconds === 1 ? '1 second' : seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`), {
    headers: { 'Retry-After': String(seconds) },
  });
};

const PAIR_REFUSED = 'Too many wrong passwords for this account from your network. Try again in {wait}.';
const ADDRESS_CEILING = 'Too many failed logins from your network. Try again in {wait}; a correct password still signs in.';

export function loginThrottle(counters: SharedCounters, limits: LoginLimits, options: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {}) {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const keys = (address: string, email: string) => ({
    account: `login-account:${email}`,
    pair: `login-pair:${address} ${email}`,
    address: `login-address:${address}`,
  });

  /** How long an attempt waits before its password is checked, from the failures so far. */
  const delayFor = (pairFailures: number, addressFailures: number, accountFailures: number) => {
    const beyondFree = pairFailures - limits.freeFailuresPerAddressAndAccount;
    const pairDelay = beyondFree >= 0 ? limits.firstDelayMs * 2 ** beyondFree : 0;
    const beyondSlowdown = addressFailures - limits.slowdownAfterPerAddress;
    const addressDelay = beyondSlowdown >= 0 ? (beyondSlowdown + 1) * limits.delayStepMs : 0;
    const beyondAccountMark = accountFailures - limits.slowdownAfterPerAccount;
    const accountDelay = beyondAccountMark >= 0 ? Math.min(limits.maxAccountDelayMs, (beyondAccountMark + 1) * limits.accountDelayStepMs) : 0;
    return Math.min(limits.maxDelayMs, Math.max(pairDelay, addressDelay, accountDelay));
  };

  return {
    /**
     * Before the password is checked: counts the attempt for its address and account, refuses it when
     * that address has used up its failures on the account, and makes a suspect attempt wait.
     */
    async beforeAttempt(address: string, email: string): Promise<void> {
      const key = keys(address, email);
      const [pair, account, fromAddress] = await Promise.all([counters.add(key.pair, limits.windowMs), counters.read(key.account), counters.read(key.address)]);
      if (pair.hits > limits.failuresPerAddressAndAccount) throw tooMany(PAIR_REFUSED, pair.resetAtMs - now());
      // The attempts before this one on the pair are its failures: a success forgets them.
      const delay = delayFor(pair.hits - 1, fromAddress?.hits ?? 0, account?.hits ?? 0);
      if (delay > 0) await sleep(delay);
    },

    /**
     * A wrong password (the attempt already counted for its address and account): counts it for the
     * account and the address; answers the 429 to send instead of the 401 when this address has now
     * used up its failures on the account, or is past its ceiling across accounts.
     */
    async failed(address: string, email: string): Promise<HttpError | undefined> {
      const key = keys(address, email);
      const [pair, , fromAddress] = await Promise.all([counters.read(key.pair), counters.add(key.account, limits.windowMs), counters.add(key.address, limits.windowMs)]);
      if (pair && pair.hits >= limits.failuresPerAddressAndAccount) return tooMany(PAIR_REFUSED, pair.resetAtMs - now());
      if (fromAddress.hits > limits.ceilingPerAddress) return tooMany(ADDRESS_CEILING, fromAddress.resetAtMs - now());
      return undefined;
    },

    /** A correct password: this address's attempts on this account are forgiven (the account's count stays: it is the guessers'). */
    succeeded: (address: string, email: string) => counters.clear(keys(address, email).pair),
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;
