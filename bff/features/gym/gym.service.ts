import {
  doorStateOf,
  pauseEndProblem,
  type CreateMember,
  type CreateOwner,
  type DoorSyncStatus,
  type GymMember,
  type GymMemberRow,
  type GymOwner,
  type MemberAttendance,
  type MemberDoorAccess,
  type Membership,
  type MemberListQuery,
  type MemberNews,
  type OwnerListQuery,
  type UpdateMember,
  type VisitCount,
  type VisitCountQuery,
} from '../../contracts/gym.contract';
import type { Page } from '../../contracts/common.contract';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/engine';
import { changesOf, personLabel, type AuditActor, type AuditRecord, type AuditWriter } from '../../db/audit-trail';
import { erasedCountsAsChanges, type ErasedCounts, type PersonToErase } from '../../db/personal-data';
import type { InTransaction } from '../../lib/event-bus';
import { badRequest, conflict, HttpError, notFound } from '../../lib/http-error';
import { zonedDay } from '../../lib/time-zone';
import { wantsDoorAccess, type AccessSyncRecord, type MembersRepository } from './members.repository';
import type { DoorAccessOutboxRepository, OwedSwitch } from './door-access-outbox.repository';
import type { OwnersRepository } from './owners.repository';
import type { VisitsRepository } from './visits.repository';

/** The door-access provider as the gym sees it: a Kisi user found by email, and their access switch. */
export interface DoorAccess {
  /** Asks Kisi now (the member's door card, a switch). */
  findUser: (email: string) => Promise<KisiDoorUser | null>;
  /** Kisi users of many emails at once (a list page), possibly a little old; keyed by the lower-cased email, null: no account. */
  findUsers: (emails: readonly string[]) => Promise<Map<string, KisiDoorUser | null>>;
  setAccess: (kisiUserId: number, enabled: boolean) => Promise<void>;
  /** One cheap request: resolves when Kisi answers. */
  probe: () => Promise<void>;
}
type KisiDoorUser = { id: number; name: string | null; email: string; accessEnabled: boolean };

/** A write of the gym: the repositories in one transaction, the audit trail beside them, and a person's erasure. */
export interface GymWrite {
  owners: OwnersRepository;
  members: MembersRepository;
  outbox: DoorAccessOutboxRepository;
  audit: AuditWriter;
  erase: (person: PersonToErase) => Promise<ErasedCounts>;
  /** Tells the open pages (a live `member` event, sent once the transaction commits) that a member changed without anyone's request: a pause that ended, a switch Kisi took. */
  announce: (news: MemberNews) => void;
}

export interface GymServiceDeps {
  owners: OwnersRepository;
  members: MembersRepository;
  visits: VisitsRepository;
  outbox: DoorAccessOutboxRepository;
  door: DoorAccess;
  inTransaction: InTransaction<GymWrite>;
  /** The venue's clock (`VENUE_TIME_ZONE`): the day a pause ends is its day. */
  timeZone: string;
  now?: () => string;
}

const OWNER_FIELDS = ['name', 'email', 'phone', 'gymName'] as const;
const MEMBER_FIELDS = ['name', 'email', 'ownerName', 'membership', 'pausedUntil'] as const;
/** Members a run of the pause job resumes at most (the next run takes the rest). */
const RESUME_BATCH = 200;
/** The trail's entries about a member: their record, and their door switches. */
const MEMBER_AUDIT_KINDS = ['member', 'door_access'] as const;
/** What the trail calls a member once they are deleted and their door is switched off, or erased. */
const deletedMemberLabel = (id: number) => `member #${id}`;
/** A membership change in one word for the trail ("paused"); any other change is an update. */
const memberAction = (before: GymMember, after: GymMember) =>
  before.membership === after.membership ? 'updated' : ({ active: 'reactivated', paused: 'paused', cancelled: 'cancelled' } as const)[after.membership];

/**
 * Members added, in the caller's transaction: their rows, their door switches owed to Kisi (the
 * outbox) and an audit entry each. One member by hand or a CSV import's thousands take this one path,
 * a few statements for a few hundred members. Answers their ids in the order given.
 */
async function addMembersIn(tx: GymWrite, actor: AuditActor, inputs: readonly CreateMember[], at: string): Promise<number[]> {
  const ids = await tx.members.insertMany(inputs.map((input) => ({ ...input, sync: switchDue(at), now: at })));
  await tx.outbox.queueMany(ids.map((memberId, i) => ({ memberId, wantEnabled: wantsDoorAccess(inputs[i]!.membership) })), at);
  const created = new Map((await tx.members.findMany(ids)).map((member) => [member.id, member]));
  await tx.audit(
    actor,
    ids.map((id): AuditRecord => {
      const member = created.get(id)!;
      return { kind: 'member', action: 'created', subjectId: id, subject: personLabel(member), changes: changesOf(null, member, MEMBER_FIELDS) };
    }),
  );
  return ids;
}

/** Inserts, answering 409 when the email is taken (also when two requests race for it). */
async function insertUnique<T>(insert: () => Promise<T>, duplicateMessage: string): Promise<T> {
  try {
    return await insert();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(duplicateMessage);
    throw err;
  }
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 300);

/** The first retry of a switch Kisi did not take, doubling with each failure up to `MAX_RETRY_MS`. */
export const FIRST_RETRY_MS = 5_000;
export const MAX_RETRY_MS = 5 * 60_000;
/** How long a claimed switch is the claimer's before another sender may take it (a send is seconds). */
export const SEND_LEASE_MS = 60_000;
export const retryDelayMs = (failures: number) => Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));

/**
 * What a member's record says from the write that makes a door switch due until Kisi agrees: the
 * switch is owed, and queued in the same transaction (`door_access_outbox`), so a server stopped in
 * between leaves the switch to the next sender, never a paused member let in while nothing is due.
 */
const switchDue = (at: string): AccessSyncRecord => ({ state: 'pending', error: null, at });

export function gymService({ owners, members, visits, outbox, door, inTransaction, timeZone, now = () => new Date().toISOString() }: GymServiceDeps) {
  const ownerOr404 = async (id: number) => (await owners.find(id)) ?? Promise.reject(notFound(`No gym owner with id ${id}.`));
  const memberOr404 = async (id: number) => (await members.find(id)) ?? Promise.reject(notFound(`No gym member with id ${id}.`));
  const ensureOwnerExists = async (ownerId: number, from: Pick<OwnersRepository, 'find'> = owners) => {
    if (!(await from.find(ownerId))) throw badRequest('The owner does not exist.', [{ path: 'body.ownerId', message: `No gym owner with id ${ownerId}` }]);
  };

  const later = (ms: number) => new Date(Date.parse(now()) + ms).toISOString();
  /** Kisi answered (or not) on this server's last try: what the desk's banner says. */
  let lastContact: { reachable: boolean; at: string } | null = null;

  /**
   * Sends one owed switch: asks Kisi for the member's user, switches it if it differs, and records
   * the outcome. Kisi agreeing (or having no user with the email) removes the row and confirms the
   * member, with the switch in the audit trail, in one transaction; a failure keeps the row, tried
   * again after a doubling delay. Tells whether Kisi answered.
   */
  async function send(actor: AuditActor, owed: OwedSwitch): Promise<boolean> {
    const member = await members.find(owed.memberId);
    // A deleted member's switch-off goes by the email their row kept (their record is gone, and with
    // an erasure their name too: the trail calls them by their id).
    const email = member?.email ?? owed.email;
    const dropped = async () => void (await inTransaction((tx) => tx.outbox.done(owed)));
    if (!email) return dropped().then(() => true);
    // The email is a member's again (added back since): their own membership decides their door.
    if (!member && (await members.emailInUse(email))) return dropped().then(() => true);
    const want = owed.wantEnabled;
    let state: 'synced' | 'no_kisi_user';
    let switched = false;
    try {
      const kisiUser = await door.findUser(email);
      if (!kisiUser) state = 'no_kisi_user';
      else {
        if (kisiUser.accessEnabled !== want) {
          await door.setAccess(kisiUser.id, want);
          switched = true;
        }
        state = 'synced';
      }
    } catch (err) {
      lastContact = { reachable: false, at: now() };
      const error = `Could not switch door access ${want ? 'on' : 'off'}: ${reason(err)}`;
      await inTransaction(async (tx) => {
        // The member's row first, then the outbox's, as a save and the pause job take them (PostgreSQL: no deadlock).
        if (member) await tx.members.lock(owed.memberId);
        await tx.outbox.failed(owed, error, later(retryDelayMs(owed.attempts + 1)));
        if (member) await tx.members.recordAccessSync(owed.memberId, { state: 'pending', error, at: now() });
      });
      return false;
    }
    lastContact = { reachable: true, at: now() };
    await inTransaction(async (tx) => {
      if (member) await tx.members.lock(owed.memberId);
      const removed = Number((await tx.outbox.done(owed))[0]?.numDeletedRows ?? 0);
      // A newer change came while this one was sent: the member stays pending until that one is.
      const at = now();
      if (member && removed > 0) await tx.members.recordAccessSync(owed.memberId, { state, error: null, at, ...(state === 'synced' ? { confirmed: want } : {}) });
      else if (member && state === 'synced') await tx.members.recordConfirmed(owed.memberId, want, at);
      // The member's open pages stop saying "Waiting for Kisi" (a switch sent by the job, or after a pause ended).
      if (member && removed > 0) tx.announce({ memberId: owed.memberId, membership: member.membership });
      if (switched) {
        await tx.audit(actor, {
          kind: 'door_access',
          action: want ? 'switched on' : 'switched off',
          subjectId: owed.memberId,
          subject: member ? personLabel(member) : deletedMemberLabel(owed.memberId),
          changes: [{ field: 'accessEnabled', before: !want, after: want }],
        });
      }
    });
    return true;
  }

  /** Sends every owed switch that is due (the job), or the one member's at once ("try now"). */
  async function sendOwed(actor: AuditActor, memberId?: number): Promise<{ sent: number; failed: number }> {
    const claimed = await outbox.claim(now(), later(SEND_LEASE_MS), memberId);
    let failed = 0;
    for (const owed of claimed) if (!(await send(actor, owed))) failed++;
    return { sent: claimed.length - failed, failed };
  }

  /**
   * Try now (the member page's Retry, and right after a change): sends the member's owed switch at
   * once; a member with none owed (a record from before the outbox) is queued first.
   */
  async function syncDoorAccess(actor: AuditActor, id: number): Promise<GymMember> {
    const member = await memberOr404(id);
    if (!member.accessSync.waiting) await inTransaction((tx) => tx.outbox.queue(id, wantsDoorAccess(member.membership), now()));
    await sendOwed(actor, id);
    return memberOr404(id);
  }

  /** Owes Kisi the member's switch, in the transaction of the change that makes it due. */
  async function queueSwitch(tx: GymWrite, id: number, membership: Membership, at: string) {
    await tx.members.recordAccessSync(id, switchDue(at));
    await tx.outbox.queue(id, wantsDoorAccess(membership), at);
  }

  return {
    listOwners: (query: OwnerListQuery): Promise<Page<GymOwner>> => owners.list(query),
    getOwner: ownerOr404,

    async createOwner(actor: AuditActor, input: CreateOwner): Promise<GymOwner> {
      const id = await insertUnique(
        () =>
          inTransaction(async (tx) => {
            const id = await tx.owners.insert({ name: input.name, email: input.email, phone: input.phone, gymName: input.gymName, createdAt: now() });
            await tx.audit(actor, { kind: 'owner', action: 'created', subjectId: id, subject: personLabel(input), changes: changesOf(null, input, OWNER_FIELDS) });
            return id;
          }),
        `A gym owner with email ${input.email} already exists.`,
      );
      return ownerOr404(id);
    },

    async deleteOwner(actor: AuditActor, id: number): Promise<void> {
      const owner = await ownerOr404(id);
      const deleted = await inTransaction(async (tx) => {
        if ((await tx.owners.deleteIfNoMembers(id)) === 0) return false;
        await tx.audit(actor, { kind: 'owner', action: 'deleted', subjectId: id, subject: personLabel(owner), changes: changesOf(owner, null, OWNER_FIELDS) });
        return true;
      });
      if (!deleted) {
        const count = (await owners.find(id))?.memberCount ?? owner.memberCount;
        throw conflict(`${owner.name} still has ${count} member${count === 1 ? '' : 's'}. Move or delete them first.`);
      }
    },

    /**
     * A page of members with their last visit, and whether the doors open for each by the same
     * `doorStateOf` as their door card. Kisi is asked once for the page; when it cannot be reached
     * the list still answers, each door saying so (the stored last switch is in every row).
     */
    async listMembers(query: MemberListQuery): Promise<Page<GymMemberRow>> {
      const page = await members.list(query);
      const recent = await visits.recentVisitDays(page.items.map((member) => member.id), new Date(now()));
      const kisiUsers = await door.findUsers(page.items.map((member) => member.email)).catch(() => {
        lastContact = { reachable: false, at: now() };
        return undefined;
      });
      return {
        ...page,
        items: page.items.map((member) => ({
          ...member,
          recentVisitDays: recent.get(member.id) ?? 0,
          door: doorStateOf(member.membership, kisiUsers ? (kisiUsers.get(member.email.toLowerCase()) ?? null) : undefined, { unreachable: !kisiUsers }),
        })),
      };
    },
    getMember: memberOr404,

    async createMember(actor: AuditActor, input: CreateMember): Promise<GymMember> {
      await ensureOwnerExists(input.ownerId);
      const at = now();
      const id = await insertUnique(
        () => inTransaction(async (tx) => (await addMembersIn(tx, actor, [input], at))[0]!),
        `A gym member with email ${input.email} already exists.`,
      );
      return lastContact?.reachable !== false ? syncDoorAccess(actor, id) : memberOr404(id);
    },

    /**
     * Members from a CSV file (member-import.service.ts reads and checks it): each added as by hand
     * (`addMembersIn`), all in one transaction with the import's own audit entry, so a file goes in
     * whole or not at all. An email taken or an owner deleted meanwhile is a 409, nothing added. Their
     * door switches are left to the sender (Kisi takes 5 requests a second; a file may hold thousands).
     */
    async addImportedMembers(actor: AuditActor, inputs: readonly CreateMember[], record: AuditRecord): Promise<void> {
      const at = now();
      try {
        await inTransaction(async (tx) => {
          await addMembersIn(tx, actor, inputs, at);
          await tx.audit(actor, record);
        });
      } catch (err) {
        if (isUniqueViolation(err) || isForeignKeyViolation(err)) throw conflict('A member with one of these emails was added, or an owner deleted, while the file was imported; nothing was imported. Preview the file again.');
        throw err;
      }
    },

    async updateMember(actor: AuditActor, id: number, { pausedUntil: pauseEnd, ...patch }: UpdateMember): Promise<GymMember> {
      const at = now();
      // Decided on the member as they are in the transaction, their row held: the pause job (another
      // instance's) may have resumed them since the page read them, and two saves take turns.
      const membershipChanged = await inTransaction(async (tx) => {
        const before = (await tx.members.lock(id)) ? await tx.members.find(id) : undefined;
        if (!before) throw notFound(`No gym member with id ${id}.`);
        if (patch.ownerId !== undefined) await ensureOwnerExists(patch.ownerId, tx.owners);
        // A pause's end: only with paused, after the venue's today and within a year. A membership set by
        // hand without one ends the date it had (a pause made open-ended, or the member back by hand).
        if (pauseEnd) {
          if ((patch.membership ?? before.membership) !== 'paused') throw badRequest('A pause’s end goes only with a paused membership.', [{ path: 'body.pausedUntil', message: 'Pause the membership to set the day it comes back' }]);
          const problem = pauseEndProblem(pauseEnd, zonedDay(Date.parse(at), timeZone));
          if (problem) throw badRequest('That day cannot end the pause.', [{ path: 'body.pausedUntil', message: problem }]);
        }
        const pausedUntil = pauseEnd !== undefined ? pauseEnd : patch.membership !== undefined ? null : undefined;
        await tx.members.update(id, { ...patch, pausedUntil, now: at });
        const changed = patch.membership !== undefined && patch.membership !== before.membership;
        if (changed && patch.membership) await queueSwitch(tx, id, patch.membership, at);
        const after = await tx.members.find(id);
        const changes = after ? changesOf(before, after, MEMBER_FIELDS) : [];
        if (after && changes.length > 0) await tx.audit(actor, { kind: 'member', action: memberAction(before, after), subjectId: id, subject: personLabel(after), changes });
        return changed;
      });
      // Tried at once while Kisi answers; while it is known to be away the change answers at once, pending, and the sender follows.
      return membershipChanged && lastContact?.reachable !== false ? syncDoorAccess(actor, id) : memberOr404(id);
    },

    /**
     * Deletes the member and owes Kisi their switch-off (the outbox row outlives them, with their
     * email), tried at once while Kisi answers. With `erase`, their name and email also go from door
     * events, conversations and the trail (db/personal-data.ts), and the trail records the erasure by
     * its counts, calling them "member #id".
     */
    async deleteMember(actor: AuditActor, id: number, { erase = false }: { erase?: boolean } = {}): Promise<void> {
      const deleted = await inTransaction(async (tx) => {
        const member = await tx.members.find(id);
        if (!member || (await tx.members.delete(id)) === 0) return false;
        await tx.outbox.queueSwitchOff(id, member.email, now());
        const label = deletedMemberLabel(id);
        const erased = erase ? await tx.erase({ email: member.email, name: member.name, subject: { id, kinds: MEMBER_AUDIT_KINDS, label } }) : undefined;
        await tx.audit(actor, {
          kind: 'member',
          action: 'deleted',
          subjectId: id,
          subject: erased ? label : personLabel(member),
          changes: changesOf(member, null, erased ? MEMBER_FIELDS.filter((f) => f !== 'name' && f !== 'email') : MEMBER_FIELDS),
        });
        if (erased) await tx.audit(actor, { kind: 'member', action: 'erased personal data', subjectId: id, subject: label, changes: erasedCountsAsChanges(erased) });
        return true;
      });
      if (!deleted) throw notFound(`No gym member with id ${id}.`);
      // The sender follows if Kisi is away or this try fails; the delete has happened either way.
      if (lastContact?.reachable !== false) await sendOwed(actor, id).catch(() => undefined);
    },

    syncDoorAccess,
    sendOwed,

    /**
     * The pause job: every paused member whose pause ends on the venue's today or before is active
     * again, their door switch owed to Kisi (the sender sends it), audited as the server's, and the
     * open pages told. Each is one conditional update in its own transaction: of two instances (or
     * two runs) racing, only the one whose update changed the row queues the switch and writes the
     * trail. The date is on the member's row, so a restart or a server down at midnight loses nothing.
     */
    async resumeEndedPauses(): Promise<number> {
      const at = now();
      const today = zonedDay(Date.parse(at), timeZone);
      let resumed = 0;
      for (const id of await members.pausesDue(today, RESUME_BATCH)) {
        const done = await inTransaction(async (tx) => {
          // The row held first: a save of the member by hand (which holds it too) is before or after, never between the read and the update.
          const before = (await tx.members.lock(id)) ? await tx.members.find(id) : undefined;
          if (!before || !(await tx.members.resumeIfDue(id, today, at))) return false;
          await queueSwitch(tx, id, 'active', at);
          const after = (await tx.members.find(id))!;
          await tx.audit(null, { kind: 'member', action: 'pause ended', subjectId: id, subject: personLabel(after), changes: changesOf(before, after, MEMBER_FIELDS) });
          tx.announce({ memberId: id, membership: after.membership });
          return true;
        });
        if (done) resumed++;
      }
      return resumed;
    },

    /**
     * After each start: members whose door access is not confirmed and who have nothing queued (a
     * record from before the outbox) are queued; the sender compares each with Kisi and switches
     * only what differs.
     */
    async queueUnconfirmed(): Promise<number> {
      const unconfirmed = await members.unconfirmedWithoutQueued();
      const at = now();
      for (const m of unconfirmed) await inTransaction((tx) => tx.outbox.queue(m.id, wantsDoorAccess(m.membership), at));
      return unconfirmed.length;
    },

    /**
     * Whether Kisi answered this server's last call, how many members wait, the soonest next try.
     * Kisi answering again after it did not brings every waiting switch forward.
     */
    async doorSyncStatus(): Promise<DoorSyncStatus> {
      const { waiting, nextTryAt } = await outbox.summary();
      return { kisi: lastContact ? (lastContact.reachable ? 'reachable' : 'unreachable') : 'unknown', checkedAt: lastContact?.at ?? null, waiting, nextTryAt };
    },

    /**
     * Asks Kisi whether it answers (one cheap request); when it does again (or `afterStart`: Kisi may
     * have come back while no server ran), every waiting switch is due now.
     */
    async probeKisi({ afterStart = false } = {}): Promise<boolean> {
      const wasDown = afterStart || lastContact?.reachable === false;
      try {
        await door.probe();
        lastContact = { reachable: true, at: now() };
      } catch {
        lastContact = { reachable: false, at: now() };
        return false;
      }
      if (wasDown) await outbox.bringForward(now());
      return true;
    },
    kisiSeemsDown: () => lastContact?.reachable === false,

    /** A member's attendance by venue day: today, this week, the last weeks. */
    async memberAttendance(id: number): Promise<MemberAttendance> {
      const lastVisitAt = await visits.lastVisitOf(id);
      if (lastVisitAt === undefined) throw notFound(`No gym member with id ${id}.`);
      return visits.attendanceOf({ id, lastVisitAt }, new Date(now()));
    },

    /** Visits (successful unlocks) since the start of the desk's day. */
    countVisits: async ({ since }: VisitCountQuery): Promise<VisitCount> => ({ since, count: await visits.countVisitorsSince(since) }),

    /**
     * The member's Kisi user, asked now: a 502 (or 504) problem when Kisi cannot answer; the member's own
     * read still says what is known. What Kisi answers is kept as what it last confirmed (the list's door
     * filter reads it), unless a switch is owed: the sender's answer will say that one.
     */
    async doorAccess(id: number): Promise<MemberDoorAccess> {
      const member = await memberOr404(id);
      try {
        const asked = now();
        const kisiUser = await door.findUser(member.email);
        const at = now();
        lastContact = { reachable: true, at };
        const sync = member.accessSync;
        if (kisiUser && (await members.recordSeenInKisi(id, kisiUser.accessEnabled, { asked, at }))) {
          return { kisiUser, accessSync: { ...sync, confirmedEnabled: kisiUser.accessEnabled, confirmedAt: at } };
        }
        return { kisiUser, accessSync: sync };
      } catch (err) {
        if (!(err instanceof Error && err.name === 'KisiError')) throw err;
        lastContact = { reachable: false, at: now() };
        const timedOut = /did not answer/.test(err.message);
        throw new HttpError(timedOut ? 504 : 502, timedOut ? 'Kisi did not answer in time. Try again in a moment.' : 'Kisi could not be reached. Try again in a moment.');
      }
    },
  };
}
export type GymService = ReturnType<typeof gymService>;
