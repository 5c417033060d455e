import type { Passkey } from '../../contracts/account.contract';
import type { Db } from '../../db/database';

/** A passkey as the server checks a sign-in with it. */
export interface StoredPasskey extends Passkey {
  accountId: number;
  /** base64url, as the browser names it. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The signature counter last seen (0 for authenticators that keep none, as synced passkeys do). */
  counter: number;
  transports: string[];
}

export type ChallengePurpose = 'register' | 'sign-in';

/** `transports` as stored (a JSON array), read back without trusting it to parse. */
const transportsOf = (json: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
};

/**
 * Passkeys, the accounts' WebAuthn user handles and the challenges handed out: in the database, so
 * any instance checks an answer to a challenge another one made.
 */
export function passkeysRepository(db: Db) {
  const listed = ['id', 'name', 'created_at as createdAt', 'last_used_at as lastUsedAt', 'backed_up as backedUp'] as const;
  const asPasskey = (row: { id: number; name: string; createdAt: string; lastUsedAt: string | null; backedUp: number }): Passkey => ({ ...row, backedUp: Boolean(row.backedUp) });

  return {
    /** The credentials an account already has, so the browser does not make a second one on the same authenticator. */
    credentialsOf: async (accountId: number): Promise<{ id: string; transports: string[] }[]> =>
      (await db.selectFrom('passkeys').select(['credential_id', 'transports']).where('account_id', '=', accountId).orderBy('id').execute()).map((row) => ({
        id: row.credential_id,
        transports: transportsOf(row.transports),
      })),

    countOf: async (accountId: number): Promise<number> =>
      Number((await db.selectFrom('passkeys').select((eb) => eb.fn.countAll<number | string>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow()).n),

    findByCredentialId: async (credentialId: string): Promise<StoredPasskey | undefined> => {
      const row = await db
        .selectFrom('passkeys')
        .select([...listed, 'account_id as accountId', 'credential_id as credentialId', 'public_key as publicKey', 'counter', 'transports'])
        .where('credential_id', '=', credentialId)
        .executeTakeFirst();
      return row && { ...asPasskey(row), accountId: row.accountId, credentialId: row.credentialId, publicKey: row.publicKey, counter: Number(row.counter), transports: transportsOf(row.transports) };
    },

    /** One passkey of the account; another account's is none. */
    findOwned: async (accountId: number, id: number): Promise<Passkey | undefined> => {
      const row = await db.selectFrom('passkeys').select(listed).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      return row && asPasskey(row);
    },

    insert: async (passkey: Omit<StoredPasskey, 'id' | 'lastUsedAt'> & { deviceType: string }): Promise<Passkey> => {
      const row = await db
        .insertInto('passkeys')
        .values({
          account_id: passkey.accountId,
          credential_id: passkey.credentialId,
          public_key: passkey.publicKey,
          counter: passkey.counter,
          transports: JSON.stringify(passkey.transports),
          device_type: passkey.deviceType,
          backed_up: passkey.backedUp ? 1 : 0,
          name: passkey.name,
          created_at: passkey.createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, name: passkey.name, createdAt: passkey.createdAt, lastUsedAt: null, backedUp: passkey.backedUp };
    },

    /** Renames a passkey of the account; answers whether there was one. */
    rename: async (accountId: number, id: number, name: string): Promise<boolean> =>
      Number((await db.updateTable('passkeys').set({ name }).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst()).numUpdatedRows) > 0,

    /** Removes a passkey of the account; answers whether there was one. */
    remove: async (accountId: number, id: number): Promise<boolean> =>
      Number((await db.deleteFrom('passkeys').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst()).numDeletedRows) > 0,

    /**
     * Records a sign-in: the counter only moves forward, in the statement itself, so two sign-ins
     * answering the same count (a cloned authenticator, a replay racing the original) cannot both
     * move it. Counters of 0 are authenticators that keep none: they always pass. Answers whether
     * the use was recorded.
     */
    recordUse: async (id: number, use: { counter: number; backedUp: boolean; at: string }): Promise<boolean> => {
      const result = await db
        .updateTable('passkeys')
        .set({ counter: use.counter, backed_up: use.backedUp ? 1 : 0, last_used_at: use.at })
        .where('id', '=', id)
        .where((eb) => (use.counter === 0 ? eb('counter', '=', 0) : eb('counter', '<', use.counter)))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** The account's WebAuthn user handle (base64url), if it has one yet. */
    userHandleOf: async (accountId: number): Promise<string | null> =>
      (await db.selectFrom('accounts').select('webauthn_user_id').where('id', '=', accountId).executeTakeFirst())?.webauthn_user_id ?? null,

    /**
     * Gives the account `candidate` as its WebAuthn user handle unless it has one already (two first
     * registrations at once: the first written wins), and answers the one it has.
     */
    ensureUserHandle: async (accountId: number, candidate: string): Promise<string> => {
      await db.updateTable('accounts').set({ webauthn_user_id: candidate }).where('id', '=', accountId).where('webauthn_user_id', 'is', null).execute();
      const row = await db.selectFrom('accounts').select('webauthn_user_id').where('id', '=', accountId).executeTakeFirstOrThrow();
      return row.webauthn_user_id ?? candidate;
    },

    insertChallenge: async (challenge: { challenge: string; purpose: ChallengePurpose; accountId: number | null; expiresAt: string }): Promise<void> => {
      await db.insertInto('webauthn_challenges').values({ challenge: challenge.challenge, purpose: challenge.purpose, account_id: challenge.accountId, expires_at: challenge.expiresAt }).execute();
    },

    /**
     * Takes a challenge handed out for `purpose` (and, for a registration, to that account), unexpired:
     * one delete, so of two answers to it (two instances, a replay) only one gets it.
     */
    consumeChallenge: async (challenge: string, purpose: ChallengePurpose, accountId: number | null, now: string): Promise<boolean> => {
      const result = await db
        .deleteFrom('webauthn_challenges')
        .where('challenge', '=', challenge)
        .where('purpose', '=', purpose)
        .where((eb) => (accountId === null ? eb('account_id', 'is', null) : eb('account_id', '=', accountId)))
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    deleteExpiredChallenges: async (now: string): Promise<number> =>
      Number((await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).executeTakeFirst()).numDeletedRows),
  };
}
export type PasskeysRepository = ReturnType<typeof passkeysRepository>;
