import * as v from 'valibot';
import { CalendarDaySchema, EmailSchema, EraseQuerySchema, IdParamSchema, NoContentSchema, PageQuerySchema, idNumber, idText, isoInstant, pageOf, requiredText, CURSOR_PAGE_ENTRIES } from './common.contract';
import { endpoint } from './endpoint.contract';
import { MemberImportConfirmBodySchema, MemberImportPreviewBodySchema, MemberImportPreviewSchema, MemberImportResultSchema } from './member-import.contract';

const optionalQuery = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'Search is at most 200 characters')));

export const MEMBERSHIPS = ['active', 'paused', 'cancelled'] as const;
export const MembershipSchema = v.picklist(MEMBERSHIPS, 'Expected one of active, paused, cancelled');
export type Membership = v.InferOutput<typeof MembershipSchema>;

// ---- owners -------------------------------------------------------------------------------

export const GymOwnerSchema = v.object({
  id: v.number(),
  name: v.string(),
  email: v.string(),
  phone: v.nullable(v.string()),
  gymName: v.string(),
  memberCount: v.number(),
  createdAt: v.string(),
});
export type GymOwner = v.InferOutput<typeof GymOwnerSchema>;
export const GymOwnerPageSchema = pageOf(GymOwnerSchema);

export const OwnerListQuerySchema = v.object({ ...PageQuerySchema.entries, query: optionalQuery });
export type OwnerListQuery = v.InferOutput<typeof OwnerListQuerySchema>;

export const CreateOwnerSchema = v.object({
  name: requiredText('Enter the owner’s name', 120),
  email: EmailSchema,
  phone: v.optional(
    v.nullable(
      v.pipe(
        v.string('Enter a phone number such as +1 555 123 4567'),
        v.trim(),
        v.regex(/^$|^\+?[0-9 ()./-]{5,30}$/, 'Enter a phone number such as +1 555 123 4567'),
        v.transform((s) => s || null),
      ),
    ),
    null,
  ),
  gymName: requiredText('Enter the gym’s name', 120),
});
export type CreateOwner = v.InferOutput<typeof CreateOwnerSchema>;

// ---- members (gym users) ------------------------------------------------------------------

/**
 * What the BFF last did to the member's Kisi access, so a failure is never silently lost. `pending`:
 * a switch is owed to Kisi and the server keeps sending it until Kisi agrees (`waiting` says when it
 * tries next); `failed` is only what a member recorded before that (issue 53) may still say.
 */
export const ACCESS_SYNC_STATES = ['synced', 'pending', 'failed', 'no_kisi_user', 'not_needed'] as const;
/** A switch still owed to Kisi: how often it was tried, when it is tried next, and why the last try failed. */
export const AccessWaitSchema = v.object({ attempts: v.number(), nextTryAt: v.string(), lastError: v.nullable(v.string()) });
export const AccessSyncSchema = v.object({
  state: v.picklist(ACCESS_SYNC_STATES),
  /** Whether door access should be on, from the membership. */
  wantEnabled: v.boolean(),
  error: v.nullable(v.string()),
  at: v.nullable(v.string()),
  /** What Kisi last confirmed for the member (access on or off) and when; null: never confirmed. */
  confirmedEnabled: v.nullable(v.boolean()),
  confirmedAt: v.nullable(v.string()),
  /** The switch still owed to Kisi, if any. */
  waiting: v.nullable(AccessWaitSchema),
});
export type AccessSync = v.InferOutput<typeof AccessSyncSchema>;

export const GymMemberSchema = v.object({
  id: v.number(),
  email: v.string(),
  name: v.string(),
  ownerId: v.number(),
  ownerName: v.string(),
  gymName: v.string(),
  membership: MembershipSchema,
  /** A paused membership's last day off: the venue's day (YYYY-MM-DD) it comes back to active, by the server's job; null: no end set. */
  pausedUntil: v.nullable(v.string()),
  accessSync: AccessSyncSchema,
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type GymMember = v.InferOutput<typeof GymMemberSchema>;

/**
 * The desk's orders of the member list: by name, by last visit newest first (`-last_visit`) or
 * oldest first (`last_visit`). Members who never came sort last either way.
 */
export const MEMBER_SORTS = ['name', '-last_visit', 'last_visit'] as const;
export const MemberSortSchema = v.picklist(MEMBER_SORTS, 'Expected one of name, -last_visit, last_visit');
export type MemberSort = v.InferOutput<typeof MemberSortSchema>;

/**
 * The member list's filter by door access as last recorded (issue 52), each member in exactly one:
 * no Kisi account with their email, their last switch failed, a switch waiting for Kisi, else what
 * Kisi last confirmed (open or closed), or nothing confirmed yet. Recorded, so it can be an index
 * (the list's door column asks Kisi itself, and may say otherwise after a change made in Kisi).
 */
export const MEMBER_ACCESS_STATES = ['open', 'closed', 'waiting', 'failed', 'no_account', 'unconfirmed'] as const;
export const MemberAccessStateSchema = v.picklist(MEMBER_ACCESS_STATES, `Expected one of ${MEMBER_ACCESS_STATES.join(', ')}`);
export type MemberAccessState = v.InferOutput<typeof MemberAccessStateSchema>;

/** A member's recorded door access, as the list's filter sorts them (members.repository.ts spells the same in SQL). */
export function memberAccessStateOf(sync: Pick<AccessSync, 'state' | 'confirmedEnabled'>): MemberAccessState {
  if (sync.state === 'no_kisi_user') return 'no_account';
  if (sync.state === 'failed') return 'failed';
  if (sync.state === 'pending') return 'waiting';
  if (sync.confirmedEnabled === true) return 'open';
  if (sync.confirmedEnabled === false) return 'closed';
  return 'unconfirmed';
}

/** `?next=`/`?previous=` follow the name (the default order); the orders by last visit page by number. */
export const MemberListQuerySchema = v.object({
  ...CURSOR_PAGE_ENTRIES,
  query: optionalQuery,
  ownerId: v.optional(idText('Expected a positive integer owner id')),
  membership: v.optional(MembershipSchema),
  access: v.optional(MemberAccessStateSchema),
  sort: v.optional(MemberSortSchema, 'name'),
});
export type MemberListQuery = v.InferOutput<typeof MemberListQuerySchema>;

const OwnerIdSchema = idNumber('Choose the owner of their gym');

export const CreateMemberSchema = v.object({
  email: EmailSchema,
  name: requiredText('Enter the member’s name', 120),
  ownerId: OwnerIdSchema,
  membership: v.optional(MembershipSchema, 'active'),
});
export type CreateMember = v.InferOutput<typeof CreateMemberSchema>;

/**
 * How far ahead a pause may end: a year. Longer is a cancellation in all but name, and a typo (2062
 * for 2026) would otherwise keep someone's doors shut for decades without anyone noticing.
 */
export const PAUSE_MAX_YEARS = 1;

/** The last day a pause may end on, from the venue's `today` (YYYY-MM-DD): the same date a year on (29 February: 1 March). */
export function lastPauseEnd(today: string): string {
  const [y, m, d] = today.split('-').map(Number);
  return new Date(Date.UTC(y! + PAUSE_MAX_YEARS, m! - 1, d!)).toISOString().slice(0, 10);
}

/**
 * Why `day` cannot end a pause begun on the venue's `today`, or null: it must come after today (a
 * pause that ends today or before is no pause; set Active instead) and at most a year on. The BFF
 * decides by the venue's day; the form says the same beforehand by the desk's.
 */
export function pauseEndProblem(day: string, today: string): string | null {
  if (day <= today) return 'Choose a day after today: the membership comes back on that day';
  if (day > lastPauseEnd(today)) return `Choose a day within a year (by ${lastPauseEnd(today)}); for longer, cancel the membership`;
  return null;
}

export const UpdateMemberSchema = v.pipe(
  v.object({
    name: v.optional(requiredText('Enter the member’s name', 120)),
    ownerId: v.optional(OwnerIdSchema),
    /** Set by hand, it ends any pause's date (the date comes with `pausedUntil` in the same change). */
    membership: v.optional(MembershipSchema),
    /** The day a paused membership comes back (see `pauseEndProblem`); null: paused with no end. Only with paused. */
    pausedUntil: v.optional(v.nullable(CalendarDaySchema)),
  }),
  v.check((patch) => Object.values(patch).some((value) => value !== undefined), 'Send at least one of name, ownerId, membership, pausedUntil'),
  v.forward(
    v.check((patch) => !patch.pausedUntil || patch.membership === undefined || patch.membership === 'paused', 'A pause’s end goes only with a paused membership'),
    ['pausedUntil'],
  ),
);
export type UpdateMember = v.InferOutput<typeof UpdateMemberSchema>;

/**
 * The live `member` event (`GET /api/events`): a member the server changed by itself, with no one's
 * request (a pause that ended on its day, a door switch Kisi took), so their open page and the
 * members list read again.
 */
export const MemberNewsSchema = v.object({ memberId: v.number(), membership: MembershipSchema });
export type MemberNews = v.InferOutput<typeof MemberNewsSchema>;

/** The member's Kisi account as the door sees it (null when Kisi has no user with that email). */
export const MemberDoorAccessSchema = v.object({
  kisiUser: v.nullable(v.object({ id: v.number(), name: v.nullable(v.string()), email: v.string(), accessEnabled: v.boolean() })),
  accessSync: AccessSyncSchema,
});
export type MemberDoorAccess = v.InferOutput<typeof MemberDoorAccessSchema>;

/**
 * Whether the doors open for a member, and why not: Kisi's own switch decides (it is what the door
 * asks), the membership says what it should be. The one place the desk's wording comes from, so the
 * badge and the facts under it cannot disagree. `kisiUser` undefined: Kisi not read yet (or not
 * reachable); null: no Kisi account has the member's email.
 */
export type DoorState =
  | { doors: 'open'; label: 'Doors open for them' | 'Doors open, though the membership is not active' }
  | { doors: 'closed'; label: 'Doors closed: membership not active' | 'Doors closed: switched off in Kisi' }
  | { doors: 'no_account'; label: 'No door account' }
  | { doors: 'unknown'; label: 'Door access not known' | 'Unknown — Kisi unreachable' };

export const DOOR_STATES = ['open', 'closed', 'no_account', 'unknown'] as const satisfies ReadonlyArray<DoorState['doors']>;
/** A `DoorState` on the wire (the member list's door column). */
export const DoorStateSchema = v.object({ doors: v.picklist(DOOR_STATES), label: v.string() });

/**
 * `unreachable`: Kisi was asked and did not answer, so the verdict says so rather than guessing
 * from the last stored switch (which the row and the card still show beside it).
 */
export function doorStateOf(membership: Membership, kisiUser: { accessEnabled: boolean } | null | undefined, { unreachable = false } = {}): DoorState {
  if (kisiUser === undefined) return unreachable ? { doors: 'unknown', label: 'Unknown — Kisi unreachable' } : { doors: 'unknown', label: 'Door access not known' };
  if (kisiUser === null) return { doors: 'no_account', label: 'No door account' };
  const wanted = membership === 'active';
  if (kisiUser.accessEnabled) {
    return { doors: 'open', label: wanted ? 'Doors open for them' : 'Doors open, though the membership is not active' };
  }
  return { doors: 'closed', label: wanted ? 'Doors closed: switched off in Kisi' : 'Doors closed: membership not active' };
}

/**
 * A member as the desk's list shows them: the member, when they last came in (their newest
 * successful door unlock; null: never) and whether the doors open for them (`doorStateOf` over Kisi's
 * user, at most `KISI_USERS_MAX_AGE_MS` old, so the row and the member's door card agree).
 */
export const GymMemberRowSchema = v.object({
  ...GymMemberSchema.entries,
  lastVisitAt: v.nullable(v.string()),
  /** The venue days they came in the last 4 weeks (today and the 27 days before it), each day once. */
  recentVisitDays: v.number(),
  door: DoorStateSchema,
});
export type GymMemberRow = v.InferOutput<typeof GymMemberRowSchema>;
export const GymMemberPageSchema = pageOf(GymMemberRowSchema);

/**
 * Whether Kisi answers now, as the server last found it (`unknown` before it asked), and how many
 * members wait for their door access to follow their membership.
 */
export const DoorSyncStatusSchema = v.object({
  kisi: v.picklist(['reachable', 'unreachable', 'unknown']),
  checkedAt: v.nullable(v.string()),
  waiting: v.number(),
  nextTryAt: v.nullable(v.string()),
});
export type DoorSyncStatus = v.InferOutput<typeof DoorSyncStatusSchema>;

/** "Today's visits", the people let in, each once: `since` is the start of the venue's day as the desk's clock says it (its local midnight). */
export const VisitCountQuerySchema = v.object({ since: isoInstant() });
export type VisitCountQuery = v.InferOutput<typeof VisitCountQuerySchema>;
export const VisitCountSchema = v.object({ since: v.string(), count: v.number() });
export type VisitCount = v.InferOutput<typeof VisitCountSchema>;

/** The weeks a member's attendance shows, this one last; and the days the list's column counts. */
export const ATTENDANCE_WEEKS = 12;
export const RECENT_VISIT_DAYS = 28;

/**
 * How often a member comes, each venue day (`VENUE_TIME_ZONE`) counted once however many doors they
 * opened: today, this week (weeks start on Monday) and each of the last 12 weeks, oldest first.
 */
export const MemberAttendanceSchema = v.object({
  timeZone: v.string(),
  /** The venue's day now (YYYY-MM-DD). */
  today: v.string(),
  cameToday: v.boolean(),
  /** Days they came this week, today included. */
  thisWeek: v.number(),
  lastVisitAt: v.nullable(v.string()),
  /** `start`: the week's Monday (YYYY-MM-DD); `days`: 0–7. The last is this week, up to today. */
  weeks: v.array(v.object({ start: v.string(), days: v.number() })),
});
export type MemberAttendance = v.InferOutput<typeof MemberAttendanceSchema>;

// ---- endpoints (staff and admins) ---------------------------------------------------------------

const staff = ['staff'] as const;

export const gymApi = {
  listOwners: endpoint({ method: 'GET', path: '/api/gym/owners', summary: 'Gym owners, by name; `query` searches name, email and gym', access: staff, query: OwnerListQuerySchema, response: GymOwnerPageSchema }),
  getOwner: endpoint({ method: 'GET', path: '/api/gym/owners/:id', summary: 'One gym owner with their member count', access: staff, params: IdParamSchema, response: GymOwnerSchema, errors: [404] }),
  createOwner: endpoint({ method: 'POST', path: '/api/gym/owners', summary: 'Add a gym owner (email unique)', access: staff, body: CreateOwnerSchema, response: GymOwnerSchema, status: 201, errors: [409] }),
  deleteOwner: endpoint({
    method: 'DELETE',
    path: '/api/gym/owners/:id',
    summary: 'Delete a gym owner; refused (409) while they still have members',
    access: staff,
    params: IdParamSchema,
    response: NoContentSchema,
    status: 204,
    errors: [404, 409],
  }),
  listMembers: endpoint({
    method: 'GET',
    path: '/api/gym/users',
    summary: 'Gym members with their last visit, days they came in the last 4 weeks and door access, filtered by search, owner, membership and recorded door access; `sort` by name or last visit (never-visited last)',
    access: staff,
    query: MemberListQuerySchema,
    response: GymMemberPageSchema,
  }),
  getMember: endpoint({ method: 'GET', path: '/api/gym/users/:id', summary: 'One gym member', access: staff, params: IdParamSchema, response: GymMemberSchema, errors: [404] }),
  createMember: endpoint({
    method: 'POST',
    path: '/api/gym/users',
    summary: "Add a gym member (email unique); their Kisi door access is switched to match the membership",
    access: staff,
    body: CreateMemberSchema,
    response: GymMemberSchema,
    status: 201,
    errors: [409],
  }),
  updateMember: endpoint({
    method: 'PATCH',
    path: '/api/gym/users/:id',
    summary: 'Change a member; a membership change switches their Kisi door access; `pausedUntil` (with paused) is the venue’s day it comes back to active by itself',
    access: staff,
    params: IdParamSchema,
    body: UpdateMemberSchema,
    response: GymMemberSchema,
    errors: [404],
  }),
  deleteMember: endpoint({
    method: 'DELETE',
    path: '/api/gym/users/:id',
    summary: 'Delete a gym member and switch their door access off in Kisi; `erase=true` also erases their name and email from door events, conversations and the audit trail',
    access: staff,
    params: IdParamSchema,
    query: EraseQuerySchema,
    response: NoContentSchema,
    status: 204,
    errors: [404],
  }),
  doorAccess: endpoint({
    method: 'GET',
    path: '/api/gym/users/:id/access',
    summary: "The member's Kisi account as the door sees it, and what the last switch did",
    access: staff,
    params: IdParamSchema,
    response: MemberDoorAccessSchema,
    errors: [404, 502, 504],
  }),
  doorSyncStatus: endpoint({
    method: 'GET',
    path: '/api/gym/door-sync',
    summary: 'Whether Kisi can be reached now, and how many members wait for their door access to follow their membership',
    access: staff,
    response: DoorSyncStatusSchema,
  }),
  syncDoorAccess: endpoint({
    method: 'POST',
    path: '/api/gym/users/:id/access/sync',
    summary: "Try now: send the member's owed Kisi door switch at once (the outcome is recorded; a failure stays queued)",
    access: staff,
    params: IdParamSchema,
    response: GymMemberSchema,
    errors: [404],
  }),
  memberAttendance: endpoint({
    method: 'GET',
    path: '/api/gym/users/:id/attendance',
    summary: "A member's visits by venue day: today, this week and each of the last 12 weeks (a day counted once)",
    access: staff,
    params: IdParamSchema,
    response: MemberAttendanceSchema,
    errors: [404],
  }),
  countVisits: endpoint({
    method: 'GET',
    path: '/api/gym/visits/count',
    summary: 'How many people the doors let in since `since` (successful unlocks, each person once)',
    access: staff,
    query: VisitCountQuerySchema,
    response: VisitCountSchema,
  }),
  previewMemberImport: endpoint({
    method: 'POST',
    path: '/api/gym/users/import/preview',
    summary: 'Read a CSV of members (header row; name, email, owner_email, membership) and say what importing it would do to each row, with each row’s problems; writes nothing',
    access: staff,
    body: MemberImportPreviewBodySchema,
    response: MemberImportPreviewSchema,
    errors: [413],
  }),
  confirmMemberImport: endpoint({
    method: 'POST',
    path: '/api/gym/users/import',
    summary: 'Import the previewed CSV: its new members are added as by hand, in one transaction; refused (409) when the file read again now differs from the preview (`previewHash`)',
    access: staff,
    body: MemberImportConfirmBodySchema,
    response: MemberImportResultSchema,
    errors: [409, 413],
  }),
};

/** Rows a page of the gym's lists shows. */
export const GYM_PAGE_SIZE = 10;

