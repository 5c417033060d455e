import crypto from 'node:crypto';
import type * as v from 'valibot';
import type { SessionUser } from '../../contracts/auth.contract';
import type { Role } from '../../contracts/endpoint.contract';
import type { AuditChange } from '../../contracts/audit.contract';
import type { AcceptInvitationWithPasskeySchema, AccountStatus, Invitation, TeamAccount, TeamResponse } from '../../contracts/team.contract';
import { auditIn, changesOf, personLabel, type Audit, type AuditActor } from '../../db/audit-trail';
import type { Database } from '../../db/database';
import { erasePersonIn, erasedCountsAsChanges, type ErasedCounts, type PersonToErase } from '../../db/personal-data';
import { isUniqueViolation } from '../../db/engine';
import type { InTransaction } from '../../lib/event-bus';
import { badRequest, conflict, notFound } from '../../lib/http-error';
import { accountsRepository, type Account, type AccountsRepository } from './accounts.repository';
import type { AuthService, OpenedSession, SessionClient } from './auth.service';
import { passkeysRepository, type PasskeysRepository } from './passkeys.repository';
import { CHALLENGE_TTL_MS, newPasskeyOptions, verifiedNewPasskey, type RelyingParty } from './passkeys.service';
import { hashPassword } from './password';
import { sessionsRepository, type SessionsRepository } from './sessions.repository';
import { teamRepository, type StoredLink, type TeamRepository } from './team.repository';

/** One answer for every invitation link that does not open: whether it never existed, was used, withdrawn or ran out is nobody's business. */
export const INVITATION_GONE = 'This invitation link is not valid: it was used, withdrawn or has run out.';
/** As for invitations, one answer for every reset link that does not open (the account deactivated included). */
export const RESET_GONE = 'This password reset link is not valid: it was used, replaced or has run out.';
const NO_ACCOUNT = 'There is no such account: it may have been deleted.';
const NO_INVITATION = 'This invitation is no longer open: it was used, withdrawn or has run out.';
/** A passkey to join with whose answer does not pass (which check failed is nobody's business), or whose challenge ran out. */
export const JOIN_PASSKEY_REFUSED = 'This passkey could not be checked, so you have not joined yet. Try again, or choose a password.';

/** A write of the team: the repositories in one transaction, the audit trail beside them, and the team's lock. */
export interface TeamWrite {
  team: TeamRepository;
  accounts: AccountsRepository;
  sessions: SessionsRepository;
  /** For someone joining with a passkey: their first passkey and WebAuthn user handle. */
  passkeys: PasskeysRepository;
  audit: Audit;
  /** Erases a person's name and email from the venue's history (db/personal-data.ts). */
  erase: (person: PersonToErase) => Promise<ErasedCounts>;
  /**
   * Holds the team's lock until the transaction ends, so changes that could leave no active admin
   * run one after another and each counts the admins the other left (on PostgreSQL an advisory
   * lock; SQLite's write transactions run one at a time already).
   */
  lockTeam: () => Promise<void>;
}

export interface TeamServiceDeps {
  team: TeamRepository;
  accounts: AccountsRepository;
  /** The challenges handed out to people joining with a passkey (taken outside the account's transaction, as for every passkey). */
  passkeys: Pick<PasskeysRepository, 'insertChallenge' | 'consumeChallenge'>;
  inTransaction: InTransaction<TeamWrite>;
  /** Opens the session of someone who just proved who they are by a link. */
  auth: Pick<AuthService, 'openSession'>;
  /**
   * Told after sessions ended or an account changed (deactivated, deleted, another role): every
   * instance forgets the sessions it keeps in memory and ends the event streams of those that ended.
   */
  sessionsEnded: () => Promise<void>;
  now?: () => Date;
}

const ACCOUNT_FIELDS = ['email', 'name', 'role'] as const;
/** The trail's entries about an account: its changes, and its sign-ins and sessions. */
const ACCOUNT_AUDIT_KINDS = ['account', 'session'] as const;
const HOUR_MS = 3_600_000;

/** A link's secret: 32 random bytes, as the page's address carries it. Only its hash is stored. */
const newToken = () => crypto.randomBytes(32).toString('base64url');
const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * Joining with a passkey, between the options and the answer: the challenge carries the new
 * account's WebAuthn user handle (32 random bytes; the browser's answer to a registration does not
 * repeat it) and a tag of the invitation (sha256 of its secret's hash and the handle). The challenge
 * is stored as any registration's, without an account yet, and taken once; the tag makes it answer
 * only the link it was made for, checked with the secret the answer comes with.
 */
const HANDLE_BYTES = 32;
const invitationTag = (token: string, handle: Uint8Array) => crypto.createHash('sha256').update(`invitation passkey:${hashOf(token)}:`).update(handle).digest().subarray(0, 16);
const joinChallenge = (token: string) => {
  const handle = crypto.randomBytes(HANDLE_BYTES);
  return { userHandle: handle.toString('base64url'), challenge: new Uint8Array(Buffer.concat([handle, invitationTag(token, handle)])) };
};
/** The user handle a challenge made for this invitation carries; undefined for any other challenge. */
const userHandleIn = (challenge: string, token: string): string | undefined => {
  const bytes = Buffer.from(challenge, 'base64url');
  if (bytes.length !== HANDLE_BYTES + 16) return undefined;
  const handle = bytes.subarray(0, HANDLE_BYTES);
  return crypto.timingSafeEqual(bytes.subarray(HANDLE_BYTES), invitationTag(token, handle)) ? handle.toString('base64url') : undefined;
};

const toUser = (a: Pick<Account, 'id' | 'email' | 'name' | 'role'>): SessionUser => ({ id: a.id, email: a.email, name: a.name, role: a.role });
const lastAdmin = (account: Account) => conflict(`${account.name} is the last active admin: make another admin first.`);
const emailTaken = (email: string) => conflict(`${email} already has an account: change that one instead (its role, its status or a reset link).`);

export function teamService({ team, accounts, passkeys, inTransaction, auth, sessionsEnded, now = () => new Date() }: TeamServiceDeps) {
  const at = () => now().toISOString();
  const inHours = (hours: number) => new Date(now().getTime() + hours * HOUR_MS).toISOString();

  const accountOrGone = async (id: number): Promise<TeamAccount> => {
    const found = await team.findAccount(id, at());
    if (!found) throw notFound(NO_ACCOUNT);
    return found;
  };

  /**
   * Runs a change to one account under the team's lock: 404 when it is gone; when it was an active
   * admin, the change is undone (409) if it leaves no active admin. Counted after the change, in its
   * transaction: two admins demoting each other at once leave one of them an admin.
   */
  const changeAccount = <T>(id: number, change: (tx: TeamWrite, before: Account) => Promise<T>) =>
    inTransaction(async (tx) => {
      await tx.lockTeam();
      const before = await tx.accounts.findById(id);
      if (!before) throw notFound(NO_ACCOUNT);
      const result = await change(tx, before);
      if (before.role === 'admin' && before.status === 'active' && (await tx.team.activeAdmins()) === 0) throw lastAdmin(before);
      return result;
    });

  /**
   * An admin who leaves (deactivated, demoted, deleted) takes the links they made with them: an
   * invitation or a reset link they made on the way out must not let them back in.
   */
  const withdrawLinksOf = async (tx: TeamWrite, before: Account, changes: AuditChange[]) => {
    const withdrawn = await tx.team.withdrawLinksMadeBy(before.id, at());
    if (withdrawn > 0) changes.push({ field: 'linksWithdrawn', before: withdrawn, after: 0 });
  };

  /** The open link of `kind` whose secret is `token`, with its account for a reset; the one answer of its kind otherwise. */
  const openInvitation = async (token: string): Promise<StoredLink & { role: Role }> => {
    const link = await team.findOpenLink('invitation', hashOf(token), at());
    if (!link?.role) throw notFound(INVITATION_GONE);
    return { ...link, role: link.role };
  };
  const openReset = async (token: string): Promise<{ link: StoredLink; account: Account }> => {
    const link = await team.findOpenLink('reset', hashOf(token), at());
    const account = link?.accountId ? await accounts.findById(link.accountId) : undefined;
    if (!link || !account || account.status !== 'active') throw notFound(RESET_GONE);
    return { link, account };
  };

  return {
    async list(): Promise<TeamResponse> {
      const [everyone, invitations] = await Promise.all([team.listAccounts(at()), team.openInvitations(at())]);
      return { accounts: everyone, invitations };
    },

    /**
     * Invites `email` in `role` by a one-use link. An email has at most one open invitation: a new
     * one replaces (withdraws) the earlier, so the admin who invites again (a lost link, another
     * role) leaves no second way in. The secret is in this answer only.
     */
    async invite(actor: SessionUser, input: { email: string; role: Role; expiresInHours: number }): Promise<{ invitation: Invitation; link: { token: string; expiresAt: string } }> {
      const token = newToken();
      const link = await inTransaction(async (tx) => {
        await tx.lockTeam();
        if (await tx.accounts.findByEmail(input.email)) throw emailTaken(input.email);
        const createdAt = at();
        await tx.team.withdrawOpenLinks('invitation', { email: input.email }, createdAt);
        const stored = await tx.team.insertLink({ kind: 'invitation', tokenHash: hashOf(token), email: input.email, role: input.role, accountId: null, createdBy: actor.id, createdAt, expiresAt: inHours(input.expiresInHours) });
        // The trail names the email and the role, never the link's secret.
        await tx.audit(actor, { kind: 'account', action: 'invited', subject: input.email, changes: [{ field: 'role', before: null, after: input.role }] });
        return stored;
      });
      return {
        invitation: { id: link.id, email: link.email, role: input.role, createdAt: link.createdAt, expiresAt: link.expiresAt, invitedBy: actor.name },
        link: { token, expiresAt: link.expiresAt },
      };
    },

    async withdrawInvitation(actor: SessionUser, id: number): Promise<void> {
      await inTransaction(async (tx) => {
        const link = await tx.team.findOpenInvitation(id, at());
        if (!link || !(await tx.team.withdrawLink(id, at()))) throw notFound(NO_INVITATION);
        await tx.audit(actor, { kind: 'account', action: 'invitation withdrawn', subject: link.email, changes: [{ field: 'role', before: link.role, after: null }] });
      });
    },

    /** Another role, from the account's next request on (every instance forgets the session it kept with the old one). */
    async changeRole(actor: SessionUser, id: number, role: Role): Promise<TeamAccount> {
      const changed = await changeAccount(id, async (tx, before) => {
        if (before.role === role) return false;
        await tx.team.setRole(id, role);
        const changes: AuditChange[] = [{ field: 'role', before: before.role, after: role }];
        if (before.role === 'admin') await withdrawLinksOf(tx, before, changes);
        await tx.audit(actor, { kind: 'account', action: 'role changed', subjectId: id, subject: personLabel(before), changes });
        return true;
      });
      if (changed) await sessionsEnded();
      return accountOrGone(id);
    },

    /**
     * Deactivating ends every session of the account in the same transaction (and withdraws its open
     * reset link); every instance then forgets them and ends their event streams. Reactivating lets
     * the person sign in again; the sessions that ended stay ended.
     */
    async changeStatus(actor: AuditActor, id: number, status: AccountStatus): Promise<TeamAccount> {
      // `actor` null: the command line (`npm run account -- deactivate`), which is nobody's account.
      if (status === 'deactivated' && id === actor?.id) throw conflict('You cannot deactivate your own account: another admin can.');
      const changed = await changeAccount(id, async (tx, before) => {
        if (before.status === status) return false;
        await tx.team.setStatus(id, status);
        const changes = changesOf(before, { ...before, status }, ['status']);
        if (status === 'deactivated') {
          const ended = await tx.sessions.revokeAllForAccount(id, at());
          if (ended > 0) changes.push({ field: 'openSessions', before: ended, after: 0 });
          await tx.team.withdrawOpenLinks('reset', { accountId: id }, at());
          await withdrawLinksOf(tx, before, changes);
        }
        await tx.audit(actor, { kind: 'account', action: status === 'deactivated' ? 'deactivated' : 'reactivated', subjectId: id, subject: personLabel(before), changes });
        return true;
      });
      if (changed && status === 'deactivated') await sessionsEnded();
      return accountOrGone(id);
    },

    /** A one-use link to choose a new password; an earlier open one for the account stops working. The secret is in this answer only. */
    async makeResetLink(actor: SessionUser, id: number, expiresInHours: number): Promise<{ token: string; expiresAt: string }> {
      const token = newToken();
      const expiresAt = inHours(expiresInHours);
      await inTransaction(async (tx) => {
        await tx.lockTeam();
        const account = await tx.accounts.findById(id);
        if (!account) throw notFound(NO_ACCOUNT);
        if (account.status !== 'active') throw conflict(`${account.name}'s account is deactivated: reactivate it first.`);
        const createdAt = at();
        await tx.team.withdrawOpenLinks('reset', { accountId: id }, createdAt);
        await tx.team.insertLink({ kind: 'reset', tokenHash: hashOf(token), email: account.email, role: null, accountId: id, createdBy: actor.id, createdAt, expiresAt });
        await tx.audit(actor, { kind: 'account', action: 'reset link made', subjectId: id, subject: personLabel(account), changes: [{ field: 'expiresAt', before: null, after: expiresAt }] });
      });
      return { token, expiresAt };
    },

    /**
     * Deletes the account (see `teamRepository.deleteAccount` for what goes with it and what keeps its
     * history); its sessions end everywhere. With `erase`, first their name and email go from door
     * events, conversations, their messages and files and the trail's entries about them, which then
     * records the erasure by its counts and calls them "account #id"; what they did to others' records
     * keeps their name as its actor.
     */
    async remove(actor: SessionUser, id: number, { erase = false }: { erase?: boolean } = {}): Promise<void> {
      if (id === actor.id) throw conflict('You cannot delete your own account: another admin can.');
      await changeAccount(id, async (tx, before) => {
        const label = `account #${id}`;
        // Before the delete: the messages and files still name the account it erases them by.
        const erased = erase ? await tx.erase({ email: before.email, name: before.name, accountId: id, subject: { id, kinds: ACCOUNT_AUDIT_KINDS, label } }) : undefined;
        const changes = changesOf(before, null, erased ? ['role'] : ACCOUNT_FIELDS);
        await withdrawLinksOf(tx, before, changes);
        await tx.team.deleteAccount(id);
        await tx.audit(actor, { kind: 'account', action: 'deleted', subjectId: id, subject: erased ? label : personLabel(before), changes });
        if (erased) await tx.audit(actor, { kind: 'account', action: 'erased personal data', subjectId: id, subject: label, changes: erasedCountsAsChanges(erased) });
      });
      await sessionsEnded();
    },

    async previewInvitation(token: string): Promise<{ email: string; role: Role; expiresAt: string }> {
      const link = await openInvitation(token);
      return { email: link.email, role: link.role, expiresAt: link.expiresAt };
    },

    /**
     * Answers an invitation: the link is used and the account created in one transaction (of two
     * answers at once, one wins and the other gets the link's 404), then the new person is signed in.
     */
    async acceptInvitation(input: { token: string; name: string; password: string }, client: SessionClient): Promise<OpenedSession> {
      const link = await openInvitation(input.token);
      if (await accounts.findByEmail(link.email)) throw emailTaken(link.email);
      const passwordHash = await hashPassword(input.password);
      let joined: Account;
      try {
        joined = await inTransaction(async (tx) => {
          if (!(await tx.team.useLink(link.id, at()))) throw notFound(INVITATION_GONE);
          const created = await tx.accounts.insert({ email: link.email, name: input.name, role: link.role, passwordHash });
          await tx.audit(toUser(created), { kind: 'account', action: 'joined (invitation)', subjectId: created.id, subject: personLabel(created), changes: changesOf(null, created, ACCOUNT_FIELDS) });
          return created;
        });
      } catch (err) {
        // The email got an account meanwhile (another instance, the command line): the database decides.
        throw isUniqueViolation(err) ? emailTaken(link.email) : err;
      }
      return auth.openSession(joined, client, 'signed in (invitation)');
    },

    /**
     * Options for the invitee's browser to create a passkey to join with (discoverable, for the
     * invitation's email, shown under `name`): a fresh user handle, in a challenge kept 5 minutes.
     */
    async passkeyJoinOptions(input: { token: string; name: string }, rp: RelyingParty) {
      const link = await openInvitation(input.token);
      if (await accounts.findByEmail(link.email)) throw emailTaken(link.email);
      const { userHandle, challenge } = joinChallenge(input.token);
      const options = await newPasskeyOptions(rp, { email: link.email, name: input.name, userHandle }, { challenge });
      await passkeys.insertChallenge({ challenge: options.challenge, purpose: 'register', accountId: null, expiresAt: new Date(now().getTime() + CHALLENGE_TTL_MS).toISOString() });
      return options;
    },

    /**
     * Answers an invitation with a passkey: its answer checked as when adding one (a challenge of
     * ours for this link, taken once; origin, RP id, the device checked its owner), then the account
     * (no password), its user handle, the passkey, the link used and the trail in one transaction, as
     * for a password (of two answers at once, one wins); then the new person is signed in.
     */
    async acceptInvitationWithPasskey(input: v.InferOutput<typeof AcceptInvitationWithPasskeySchema>, rp: RelyingParty, client: SessionClient): Promise<OpenedSession> {
      const link = await openInvitation(input.token);
      if (await accounts.findByEmail(link.email)) throw emailTaken(link.email);
      let userHandle: string | undefined;
      const made = await verifiedNewPasskey(rp, input.passkey.response, async (challenge) => {
        const handle = userHandleIn(challenge, input.token);
        if (!handle || !(await passkeys.consumeChallenge(challenge, 'register', null, at()))) return false;
        userHandle = handle;
        return true;
      });
      if (!made || !userHandle) throw badRequest(JOIN_PASSKEY_REFUSED, [{ path: 'body.passkey.response', message: JOIN_PASSKEY_REFUSED }]);
      const handle = userHandle;
      let joined: Account;
      try {
        joined = await inTransaction(async (tx) => {
          if (!(await tx.team.useLink(link.id, at()))) throw notFound(INVITATION_GONE);
          // No password: '' matches none (sign-in compares with a dummy hash), and the account page offers to set one.
          const created = await tx.accounts.insert({ email: link.email, name: input.name, role: link.role, passwordHash: '' });
          await tx.passkeys.ensureUserHandle(created.id, handle);
          await tx.passkeys.insert({ ...made, accountId: created.id, name: input.passkey.name, createdAt: at() });
          const person = toUser(created);
          await tx.audit(person, { kind: 'account', action: 'joined (invitation)', subjectId: created.id, subject: personLabel(created), changes: changesOf(null, created, ACCOUNT_FIELDS) });
          await tx.audit(person, { kind: 'account', action: 'passkey added', subjectId: created.id, subject: personLabel(created), changes: [{ field: 'passkey', before: null, after: input.passkey.name }] });
          return created;
        });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        // The email got an account meanwhile (the database decides); else the passkey is one kept here already.
        throw (await accounts.findByEmail(link.email)) ? emailTaken(link.email) : conflict('This passkey is already kept here.');
      }
      return auth.openSession(joined, client, 'signed in (invitation)');
    },

    async previewReset(token: string): Promise<{ email: string; name: string; expiresAt: string }> {
      const { link, account } = await openReset(token);
      return { email: account.email, name: account.name, expiresAt: link.expiresAt };
    },

    /**
     * A new password by a reset link: the link used, the password set and every session of the
     * account ended in one transaction; then every instance forgets those sessions, and this browser
     * is signed in.
     */
    async useReset(input: { token: string; password: string }, client: SessionClient): Promise<OpenedSession> {
      const { link, account } = await openReset(input.token);
      const passwordHash = await hashPassword(input.password);
      const person = await inTransaction(async (tx) => {
        const current = await tx.accounts.findById(account.id);
        if (current?.status !== 'active' || !(await tx.team.useLink(link.id, at()))) throw notFound(RESET_GONE);
        await tx.accounts.updatePassword(current.id, passwordHash);
        const ended = await tx.sessions.revokeAllForAccount(current.id, at());
        // The trail says that it changed, never any form of the password or the link.
        await tx.audit(toUser(current), { kind: 'account', action: 'password reset (link)', subjectId: current.id, subject: personLabel(current), changes: ended > 0 ? [{ field: 'openSessions', before: ended, after: 0 }] : [] });
        return current;
      });
      await sessionsEnded();
      return auth.openSession(person, client, 'signed in (reset link)');
    },
  };
}
export type TeamService = ReturnType<typeof teamService>;

/** The team service on a database: each write in one transaction with its audit entry, under the team's lock where it asks for it. */
export const teamServiceOn = (
  database: Pick<Database, 'db' | 'transactionLock'>,
  { auth, sessionsEnded, now }: { auth: Pick<AuthService, 'openSession' | 'forgetCachedSessions'>; sessionsEnded: () => Promise<void>; now?: () => Date },
): TeamService =>
  teamService({
    team: teamRepository(database.db),
    accounts: accountsRepository(database.db),
    passkeys: passkeysRepository(database.db),
    inTransaction: (work) =>
      database.db.transaction().execute((trx) =>
        work({
          team: teamRepository(trx),
          accounts: accountsRepository(trx),
          sessions: sessionsRepository(trx),
          passkeys: passkeysRepository(trx),
          audit: auditIn(trx),
          erase: erasePersonIn(trx),
          lockTeam: async () => void (await database.transactionLock(trx, 'team')),
        }),
      ),
    auth,
    // This instance forgets at once (the next request reads the account as it is now), the others when they hear.
    sessionsEnded: async () => {
      auth.forgetCachedSessions();
      await sessionsEnded();
    },
    now,
  });
