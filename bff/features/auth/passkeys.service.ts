import crypto from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type * as v from 'valibot';
import type { AddPasskeySchema, AuthenticationResponseSchema, Passkey, RegistrationResponseSchema } from '../../contracts/account.contract';
import type { SessionUser } from '../../contracts/auth.contract';
import { auditIn, personLabel, type Audit } from '../../db/audit-trail';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/engine';
import type { InTransaction } from '../../lib/event-bus';
import { badRequest, conflict, notFound, unauthorized } from '../../lib/http-error';
import { accountsRepository, type AccountsRepository } from './accounts.repository';
import type { AuthService, OpenedSession, SessionClient } from './auth.service';
import { passkeysRepository, type PasskeysRepository, type StoredPasskey } from './passkeys.repository';

/** The sign-in answer for a passkey this server does not have (never registered here, or removed). */
export const UNKNOWN_PASSKEY = 'This passkey is not known here.';
/** One answer for every sign-in with a known passkey that does not pass: which check failed is nobody's business. */
export const PASSKEY_REFUSED = 'Signing in with this passkey did not work. Try again, or sign in with your password.';
const NOT_ADDED = 'This passkey could not be checked, so it was not added. Add it again.';
const NO_PASSKEY = 'This passkey is no longer on your account.';

/** The name users see in their browser's passkey prompt and their password manager. */
export const RP_NAME = 'Frontdesk';
/** How long an answer to a challenge is taken: the browser's prompt gives up after 60 s; the rest is slack for naming it. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/**
 * Ed25519, ES256 (P-256) and RS256: what authenticators make. The library would offer ML-DSA-44 too
 * where Node has it, but Node's ML-DSA is experimental (a warning in the log on each check) and no
 * authenticator makes such keys yet.
 */
const ALGORITHMS = [-8, -7, -257];

/** Where a WebAuthn ceremony happens: the RP id the browser scoped the passkey to, and the page's origin. */
export interface RelyingParty {
  rpID: string;
  origin: string;
}

/** Whether a challenge in an answer is one we handed out for this ceremony, taken now (once). */
export type TakesChallenge = (challenge: string) => Promise<boolean>;

/** A new passkey as its registration proved it, before it is someone's and named. */
export type NewPasskey = Pick<StoredPasskey, 'credentialId' | 'publicKey' | 'counter' | 'transports' | 'backedUp'> & { deviceType: string };

/**
 * Options for the browser to create a discoverable passkey for `person`, whose WebAuthn user handle
 * is `userHandle` (base64url), excluding the credentials they have; `challenge` when the caller
 * makes its own (else the library draws 32 random bytes).
 */
export const newPasskeyOptions = async (
  rp: RelyingParty,
  person: { email: string; name: string; userHandle: string },
  { exclude = [], challenge }: { exclude?: { id: string; transports: string[] }[]; challenge?: Uint8Array<ArrayBuffer> } = {},
) =>
  // Spread: the library's interface as a plain object, as the contract's loose schema types it.
  ({
    ...(await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: rp.rpID,
      userName: person.email,
      userDisplayName: person.name,
      userID: Buffer.from(person.userHandle, 'base64url'),
      challenge,
      attestationType: 'none',
      excludeCredentials: exclude,
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      supportedAlgorithmIDs: ALGORITHMS,
    })),
  });

/**
 * Runs one of the library's checks, handing it `takesChallenge` as its check of the challenge. The
 * library throws for each thing it refuses: that is `undefined` here; our challenge check throwing
 * (the database failing while the challenge is taken) stays an error (a 503, not a refusal).
 */
async function libraryCheck<T>(takesChallenge: TakesChallenge, check: (expectedChallenge: TakesChallenge) => Promise<T>): Promise<T | undefined> {
  let databaseFailure: { error: unknown } | undefined;
  const expectedChallenge = (challenge: string) =>
    takesChallenge(challenge).catch((error: unknown) => {
      databaseFailure = { error };
      throw error;
    });
  const verified = await check(expectedChallenge).catch(() => undefined);
  if (databaseFailure) throw databaseFailure.error;
  return verified;
}

/**
 * Checks the browser's answer to registration options: our challenge (`takesChallenge`), the origin
 * and RP id, and that the device checked its owner. Answers the passkey to keep; undefined when the
 * answer does not pass. Adding one to an account and joining with one (an invitation) both use it.
 */
export async function verifiedNewPasskey(rp: RelyingParty, response: v.InferOutput<typeof RegistrationResponseSchema>, takesChallenge: TakesChallenge): Promise<NewPasskey | undefined> {
  const verified = await libraryCheck(takesChallenge, (expectedChallenge) =>
    verifyRegistrationResponse({
      // The contract checked its shape; its transports are any words (a newer browser's too), the library's a list it knows.
      response: response as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      // The passkey stands in for a password: its device must have checked it was its owner (a PIN, a fingerprint).
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    }),
  );
  if (!verified?.verified) return undefined;
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? response.response.transports ?? [],
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
  };
}

/** A write of passkeys: in one transaction with its audit entry and, where it matters, the account's lock. */
export interface PasskeysWrite {
  passkeys: PasskeysRepository;
  accounts: AccountsRepository;
  audit: Audit;
  /** Holds the account's passkeys still until the transaction ends (two removals at once count each other's). */
  lockAccount: (accountId: number) => Promise<void>;
}

export interface PasskeysServiceDeps {
  passkeys: PasskeysRepository;
  accounts: Pick<AccountsRepository, 'findById'>;
  inTransaction: InTransaction<PasskeysWrite>;
  /** Opens the session of someone who just signed in with a passkey. */
  auth: Pick<AuthService, 'openSession'>;
  now?: () => Date;
}

export function passkeysService({ passkeys, accounts, inTransaction, auth, now = () => new Date() }: PasskeysServiceDeps) {
  const expiry = () => new Date(now().getTime() + CHALLENGE_TTL_MS).toISOString();
  /** Our check of a challenge: one handed out for that purpose (and account), taken now, once. */
  const challengeOf =
    (purpose: 'register' | 'sign-in', accountId: number | null): TakesChallenge =>
    (challenge) =>
      passkeys.consumeChallenge(challenge, purpose, accountId, now().toISOString());

  return {
    /** Options for the browser to create a passkey of `user`'s (a discoverable one), with a challenge kept for 5 minutes. */
    async registrationOptions(user: SessionUser, rp: RelyingParty) {
      const userHandle = await passkeys.ensureUserHandle(user.id, crypto.randomBytes(32).toString('base64url'));
      const options = await newPasskeyOptions(rp, { ...user, userHandle }, { exclude: await passkeys.credentialsOf(user.id) });
      await passkeys.insertChallenge({ challenge: options.challenge, purpose: 'register', accountId: user.id, expiresAt: expiry() });
      return options;
    },

    /** Keeps the passkey the browser made, once its answer checks out against a challenge handed out to `user`. */
    async add(user: SessionUser, rp: RelyingParty, input: v.InferOutput<typeof AddPasskeySchema>): Promise<Passkey> {
      const made = await verifiedNewPasskey(rp, input.response, challengeOf('register', user.id));
      if (!made) throw badRequest(NOT_ADDED, [{ path: 'body.response', message: NOT_ADDED }]);
      try {
        return await inTransaction(async (tx) => {
          const added = await tx.passkeys.insert({ ...made, accountId: user.id, name: input.name, createdAt: now().toISOString() });
          await tx.audit(user, { kind: 'account', action: 'passkey added', subjectId: user.id, subject: personLabel(user), changes: [{ field: 'passkey', before: null, after: input.name }] });
          return added;
        });
      } catch (err) {
        // The same authenticator's credential twice (the browser's exclude list should have stopped it).
        if (isUniqueViolation(err)) throw conflict('This passkey is already kept here.');
        throw err;
      }
    },

    async rename(user: SessionUser, id: number, name: string): Promise<Passkey> {
      return inTransaction(async (tx) => {
        const before = await tx.passkeys.findOwned(user.id, id);
        if (!before || !(await tx.passkeys.rename(user.id, id, name))) throw notFound(NO_PASSKEY);
        if (before.name !== name) {
          await tx.audit(user, { kind: 'account', action: 'passkey renamed', subjectId: user.id, subject: personLabel(user), changes: [{ field: 'passkey', before: before.name, after: name }] });
        }
        return { ...before, name };
      });
    },

    /** Removes a passkey of `user`'s, unless it is their only way in (no password, no other passkey). */
    async remove(user: SessionUser, id: number): Promise<void> {
      await inTransaction(async (tx) => {
        await tx.lockAccount(user.id);
        const passkey = await tx.passkeys.findOwned(user.id, id);
        if (!passkey) throw notFound(NO_PASSKEY);
        const account = await tx.accounts.findById(user.id);
        if (!account?.passwordHash && (await tx.passkeys.countOf(user.id)) <= 1) {
          throw conflict('This passkey is your only way to sign in. Set a password or add another passkey first.');
        }
        await tx.passkeys.remove(user.id, id);
        await tx.audit(user, { kind: 'account', action: 'passkey removed', subjectId: user.id, subject: personLabel(user), changes: [{ field: 'passkey', before: passkey.name, after: null }] });
      });
    },

    /** Options to sign in with any passkey of this site the browser has (no email asked), with a challenge kept for 5 minutes. */
    async signInOptions(rp: RelyingParty) {
      const options = await generateAuthenticationOptions({ rpID: rp.rpID, allowCredentials: [], userVerification: 'preferred' });
      await passkeys.insertChallenge({ challenge: options.challenge, purpose: 'sign-in', accountId: null, expiresAt: expiry() });
      return { ...options };
    },

    /**
     * Signs in with a passkey: a known one, of an active account, whose answer checks out (origin, RP
     * id, a challenge of ours taken once, the signature, the device checked its owner), and whose
     * counter moved forward. A counter that went back means a copy of the authenticator signs too:
     * refused, and the trail says so (the passkey's name, nothing of the answer).
     */
    async signIn(rp: RelyingParty, response: v.InferOutput<typeof AuthenticationResponseSchema>, client: SessionClient): Promise<OpenedSession> {
      const passkey = await passkeys.findByCredentialId(response.id);
      if (!passkey) throw unauthorized(UNKNOWN_PASSKEY);
      const account = await accounts.findById(passkey.accountId);
      if (!account || account.status !== 'active') throw unauthorized(PASSKEY_REFUSED);
      const userHandle = response.response.userHandle;
      if (userHandle !== undefined && userHandle !== (await passkeys.userHandleOf(account.id))) throw unauthorized(PASSKEY_REFUSED);

      const verified = await libraryCheck(challengeOf('sign-in', null), (expectedChallenge) =>
        verifyAuthenticationResponse({
          response: response as AuthenticationResponseJSON,
          expectedChallenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpID,
          // The counter is compared below, once the signature is known good: the library compares it
          // before, so a forged answer could pass for a cloned authenticator.
          credential: { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: 0, transports: passkey.transports },
          requireUserVerification: true,
        }),
      );
      if (!verified?.verified) throw unauthorized(PASSKEY_REFUSED);

      const { newCounter, credentialBackedUp } = verified.authenticationInfo;
      const recorded = await passkeys.recordUse(passkey.id, { counter: newCounter, backedUp: credentialBackedUp, at: now().toISOString() });
      if (!recorded) {
        await inTransaction((tx) =>
          tx.audit(null, {
            kind: 'account',
            action: 'passkey refused: its counter went back (a copy of it may exist)',
            subjectId: account.id,
            subject: personLabel(account),
            changes: [{ field: `counter of “${passkey.name}”`, before: passkey.counter, after: newCounter }],
          }),
        );
        throw unauthorized(PASSKEY_REFUSED);
      }
      return auth.openSession(account, client, 'signed in (passkey)');
    },

    purgeExpiredChallenges: () => passkeys.deleteExpiredChallenges(now().toISOString()),
  };
}
export type PasskeysService = ReturnType<typeof passkeysService>;

/** The passkeys service on a database, each write in one transaction with its audit entry. */
export const passkeysServiceOn = (database: Pick<Database, 'db' | 'transactionLock'>, options: Pick<PasskeysServiceDeps, 'auth' | 'now'>): PasskeysService =>
  passkeysService({
    passkeys: passkeysRepository(database.db),
    accounts: accountsRepository(database.db),
    inTransaction: (work) =>
      database.db.transaction().execute((trx) =>
        work({
          passkeys: passkeysRepository(trx),
          accounts: accountsRepository(trx),
          audit: auditIn(trx),
          lockAccount: async (accountId) => void (await database.transactionLock(trx, `passkeys:${accountId}`)),
        }),
      ),
    ...options,
  });
