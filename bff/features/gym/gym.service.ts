import {
  doorStateOf,
  type AccessSync,
  type CreateMember,
  type CreateOwner,
  type GymMember,
  type GymMemberRow,
  type GymOwner,
  type MemberDoorAccess,
  type Membership,
  type MemberListQuery,
  type OwnerListQuery,
  type UpdateMember,
  type VisitCount,
  type VisitCountQuery,
} from '../../contracts/gym.contract';
import type { Page } from '../../contracts/common.contract';
import { isUniqueViolation } from '../../db/engine';
import { changesOf, personLabel, type Audit, type AuditActor } from '../../db/audit-trail';
import type { InTransaction } from '../../lib/event-bus';
import { badRequest, conflict, notFound } from '../../lib/http-error';
import { wantsDoorAccess, type AccessSyncRecord, type MembersRepository } from './members.repository';
import type { OwnersRepository } from './owners.repository';
import type { VisitsRepository } from './visits.repository';

/** The door-access provider as the gym sees it: a Kisi user found by email, and their access switch. */
export interface DoorAccess {
  /** Asks Kisi now (the member's door card, a switch). */
  findUser: (email: string) => Promise<KisiDoorUser | null>;
  /** Kisi users of many emails at once (a list page), possibly a little old; keyed by the lower-cased email, null: no account. */
  findUsers: (emails: readonly string[]) => Promise<Map<string, KisiDoorUser | null>>;
  setAccess: (kisiUserId: number, enabled: boolean) => Promise<void>;
}
type KisiDoorUser = { id: number; name: string | null; email: string; accessEnabled: boolean };

/** A write of the gym: the repositories in one transaction, and the audit trail beside them. */
export interface GymWrite {
  owners: OwnersRepository;
  members: MembersRepository;
  audit: Audit;
}

export interface GymServiceDeps {
  owners: OwnersRepository;
  members: MembersRepository;
  visits: VisitsRepository;
  door: DoorAccess;
  inTransaction: InTransaction<GymWrite>;
  now?: () => string;
}

const OWNER_FIELDS = ['name', 'email', 'phone', 'gymName'] as const;
const MEMBER_FIELDS = ['name', 'email', 'ownerName', 'membership'] as const;
/** A membership change in one word for the trail ("paused"); any other change is an update. */
const memberAction = (before: GymMember, after: GymMember) =>
  before.membership === after.membership ? 'updated' : ({ active: 'reactivated', paused: 'paused', cancelled: 'cancelled' } as const)[after.membership];

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

/**
 * What a member's record says from the write that makes a door switch due until the switch's outcome
 * is recorded. The write says it itself, in the same statement: a server stopped in between (killed,
 * redeployed) then leaves a member shown as not switched, with a Retry, never a paused member still
 * let in while their record claims nothing is due.
 */
const switchDue = (membership: Membership, at: string): AccessSyncRecord => ({
  state: 'failed',
  error: `Door access has not been switched ${wantsDoorAccess(membership) ? 'on' : 'off'} to match the membership yet.`,
  at,
});

export function gymService({ owners, members, visits, door, inTransaction, now = () => new Date().toISOString() }: GymServiceDeps) {
  const ownerOr404 = async (id: number) => (await owners.find(id)) ?? Promise.reject(notFound(`No gym owner with id ${id}.`));
  const memberOr404 = async (id: number) => (await members.find(id)) ?? Promise.reject(notFound(`No gym member with id ${id}.`));
  const ensureOwnerExists = async (ownerId: number) => {
    if (!(await owners.find(ownerId))) throw badRequest('The owner does not exist.', [{ path: 'body.ownerId', message: `No gym owner with id ${ownerId}` }]);
  };

  /**
   * Makes the member's Kisi access match their membership, and records the outcome either way; a
   * switch made is in the audit trail with the outcome, in one transaction.
   */
  async function syncDoorAccess(actor: AuditActor, id: number): Promise<GymMember> {
    const member = await memberOr404(id);
    const want = wantsDoorAccess(member.membership);
    let state: AccessSync['state'];
    let error: string | null = null;
    let switched = false;
    try {
      const kisiUser = await door.findUser(member.email);
      if (!kisiUser) state = 'no_kisi_user';
      else {
        if (kisiUser.accessEnabled !== want) {
          await door.setAccess(kisiUser.id, want);
          switched = true;
        }
        state = 'synced';
      }
    } catch (err) {
      state = 'failed';
      error = `Could not switch door access ${want ? 'on' : 'off'}: ${reason(err)}`;
    }
    await inTransaction(async (tx) => {
      await tx.members.recordAccessSync(id, { state, error, at: now() });
      if (switched) {
        await tx.audit(actor, {
          kind: 'door_access',
          action: want ? 'switched on' : 'switched off',
          subjectId: id,
          subject: personLabel(member),
          changes: [{ field: 'accessEnabled', before: !want, after: want }],
        });
      }
    });
    return memberOr404(id);
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
      const kisiUsers = await door.findUsers(page.items.map((member) => member.email)).catch(() => undefined);
      return {
        ...page,
        items: page.items.map((member) => ({
          ...member,
          door: doorStateOf(member.membership, kisiUsers ? (kisiUsers.get(member.email.toLowerCase()) ?? null) : undefined, { unreachable: !kisiUsers }),
        })),
      };
    },
    getMember: memberOr404,

    async createMember(actor: AuditActor, input: CreateMember): Promise<GymMember> {
      await ensureOwnerExists(input.ownerId);
      const at = now();
      const id = await insertUnique(
        () =>
          inTransaction(async (tx) => {
            const id = await tx.members.insert({ ...input, sync: switchDue(input.membership, at), now: at });
            const created = (await tx.members.find(id))!;
            await tx.audit(actor, { kind: 'member', action: 'created', subjectId: id, subject: personLabel(created), changes: changesOf(null, created, MEMBER_FIELDS) });
            return id;
          }),
        `A gym member with email ${input.email} already exists.`,
      );
      return syncDoorAccess(actor, id);
    },

    async updateMember(actor: AuditActor, id: number, patch: UpdateMember): Promise<GymMember> {
      const before = await memberOr404(id);
      if (patch.ownerId !== undefined) await ensureOwnerExists(patch.ownerId);
      const membershipChanged = patch.membership !== undefined && patch.membership !== before.membership;
      const at = now();
      await inTransaction(async (tx) => {
        await tx.members.update(id, { ...patch, sync: membershipChanged ? switchDue(patch.membership!, at) : undefined, now: at });
        const after = await tx.members.find(id);
        const changes = after ? changesOf(before, after, MEMBER_FIELDS) : [];
        if (after && changes.length > 0) await tx.audit(actor, { kind: 'member', action: memberAction(before, after), subjectId: id, subject: personLabel(after), changes });
      });
      return membershipChanged ? syncDoorAccess(actor, id) : memberOr404(id);
    },

    async deleteMember(actor: AuditActor, id: number): Promise<void> {
      const deleted = await inTransaction(async (tx) => {
        const member = await tx.members.find(id);
        if (!member || (await tx.members.delete(id)) === 0) return false;
        await tx.audit(actor, { kind: 'member', action: 'deleted', subjectId: id, subject: personLabel(member), changes: changesOf(member, null, MEMBER_FIELDS) });
        return true;
      });
      if (!deleted) throw notFound(`No gym member with id ${id}.`);
    },

    syncDoorAccess,

    /** Visits (successful unlocks) since the start of the desk's day. */
    countVisits: async ({ since }: VisitCountQuery): Promise<VisitCount> => ({ since, count: await visits.countVisitorsSince(since) }),

    async doorAccess(id: number): Promise<MemberDoorAccess> {
      const member = await memberOr404(id);
      const kisiUser = await door.findUser(member.email);
      return { kisiUser, accessSync: member.accessSync };
    },
  };
}
export type GymService = ReturnType<typeof gymService>;
