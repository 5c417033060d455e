import type { SharedCounters } from '../../db/shared-limits';
import { HttpError } from '../../lib/http-error';

/**
 * How failed logins are answered (README "Decisions": the login limit aims at the guesser, not the
 * desk). Failures are counted three ways, in counters every instance shares:
 * - per address and account: a few free failures, then every attempt from that address on that
 *   account waits before its password is checked, twice as long after each further failure;
 * - per account, from every address together: past the limit the account is locked until its
 *   window ends — the one refusal a correct password can meet;
 * - per address, across accounts: past a high slowdown mark every attempt from the address waits,
 *   and past its ceiling a wrong password is answered 429 instead of 401.
 * The waits come before the check, so a guesser cannot learn the answer by giving up early. A
 * correct password for an account that is not locked always signs in, from any address: the front
 * desk shares one connection with whoever may be guessing at the next terminal.
 */
export interface LoginLimits {
  /** How long failures are remembered. */
  windowMs: number;
  /** Failures one address may make on one account before its attempts on it wait. */
  freeFailuresPerAddressAndAccount: number;
  /** The first such wait; each further failure doubles it (up to `maxDelayMs`). */
  firstDelayMs: number;
  /** Failures on one account, from every address together, that lock it until the window ends. */
  failuresPerAccount: number;
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
  failuresPerAccount: 20,
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

export function loginThrottle(counters: SharedCounters, limits: LoginLimits, options: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {}) {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const keys = (address: string, email: string) => ({
    account: `login-account:${email}`,
    pair: `login-pair:${address} ${email}`,
    address: `login-address:${address}`,
  });

  /** How long an attempt waits before its password is checked, from the failures so far. */
  const delayFor = (pairFailures: number, addressFailures: number) => {
    const beyondFree = pairFailures - limits.freeFailuresPerAddressAndAccount;
    const pairDelay = beyondFree >= 0 ? limits.firstDelayMs * 2 ** beyondFree : 0;
    const beyondSlowdown = addressFailures - limits.slowdownAfterPerAddress;
    const addressDelay = beyondSlowdown >= 0 ? (beyondSlowdown + 1) * limits.delayStepMs : 0;
    return Math.min(limits.maxDelayMs, Math.max(pairDelay, addressDelay));
  };

  return {
    /** Before the password is checked: refuses a locked account, and makes a suspect attempt wait. */
    async beforeAttempt(address: string, email: string): Promise<void> {
      const key = keys(address, email);
      const [account, pair, fromAddress] = await Promise.all([counters.read(key.account), counters.read(key.pair), counters.read(key.address)]);
      if (account && account.hits >= limits.failuresPerAccount) {
        throw tooMany('This account is locked after too many failed logins. Try again in {wait}.', account.resetAtMs - now());
      }
      const delay = delayFor(pair?.hits ?? 0, fromAddress?.hits ?? 0);
      if (delay > 0) await sleep(delay);
    },

    /** A wrong password: counts it everywhere; answers the 429 to send instead of the 401 when the address is past its ceiling. */
    async failed(address: string, email: string): Promise<HttpError | undefined> {
      const key = keys(address, email);
      const [, , fromAddress] = await Promise.all([
        counters.add(key.pair, limits.windowMs),
        counters.add(key.account, limits.windowMs),
        counters.add(key.address, limits.windowMs),
      ]);
      if (fromAddress.hits <= limits.ceilingPerAddress) return undefined;
      return tooMany('Too many failed logins from your network. Try again in {wait}; a correct password still signs in.', fromAddress.resetAtMs - now());
    },

    /** A correct password: this address's failures on this account are forgiven. */
    succeeded: (address: string, email: string) => counters.clear(keys(address, email).pair),
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;
