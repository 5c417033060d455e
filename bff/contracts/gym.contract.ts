import * as v from 'valibot';
import { EmailSchema } from './auth.contract';
import { PageQuerySchema, pageOf } from './common.contract';

const requiredText = (label: string, max: number) =>
  v.pipe(v.string(`Expected ${label} as text`), v.trim(), v.nonEmpty('Required'), v.maxLength(max, `${label} is at most ${max} characters`));

const optionalQuery = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'Search is at most 200 characters')));

const positiveIdText = (message: string) => v.pipe(v.string(), v.regex(/^[1-9]\d{0,15}$/, message), v.transform(Number));

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
  name: requiredText('Name', 120),
  email: EmailSchema,
  phone: v.optional(
    v.nullable(
      v.pipe(
        v.string('Expected a phone number as text'),
        v.trim(),
        v.regex(/^$|^\+?[0-9 ()./-]{5,30}$/, 'Expected a phone number such as +1 555 123 4567'),
        v.transform((s) => s || null),
      ),
    ),
    null,
  ),
  gymName: requiredText('Gym name', 120),
});
export type CreateOwner = v.InferOutput<typeof CreateOwnerSchema>;

// ---- members (gym users) ------------------------------------------------------------------

/** What the BFF last did to the member's Kisi access, so a failure is never silently lost. */
export const ACCESS_SYNC_STATES = ['synced', 'failed', 'no_kisi_user', 'not_needed'] as const;
export const AccessSyncSchema = v.object({
  state: v.picklist(ACCESS_SYNC_STATES),
  /** Whether door access should be on, from the membership. */
  wantEnabled: v.boolean(),
  error: v.nullable(v.string()),
  at: v.nullable(v.string()),
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
  accessSync: AccessSyncSchema,
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type GymMember = v.InferOutput<typeof GymMemberSchema>;
export const GymMemberPageSchema = pageOf(GymMemberSchema);

export const MemberListQuerySchema = v.object({
  ...PageQuerySchema.entries,
  query: optionalQuery,
  ownerId: v.optional(positiveIdText('Expected a positive integer owner id')),
  membership: v.optional(MembershipSchema),
});
export type MemberListQuery = v.InferOutput<typeof MemberListQuerySchema>;

const OwnerIdSchema = v.pipe(v.number('Expected an owner id number'), v.integer('Expected a whole number'), v.minValue(1, 'Expected a positive owner id'));

export const CreateMemberSchema = v.object({
  email: EmailSchema,
  name: requiredText('Name', 120),
  ownerId: OwnerIdSchema,
  membership: v.optional(MembershipSchema, 'active'),
});
export type CreateMember = v.InferOutput<typeof CreateMemberSchema>;

export const UpdateMemberSchema = v.pipe(
  v.object({
    name: v.optional(requiredText('Name', 120)),
    ownerId: v.optional(OwnerIdSchema),
    membership: v.optional(MembershipSchema),
  }),
  v.check((patch) => Object.values(patch).some((value) => value !== undefined), 'Send at least one of name, ownerId, membership'),
);
export type UpdateMember = v.InferOutput<typeof UpdateMemberSchema>;

/** The member's Kisi account as the door sees it (null when Kisi has no user with that email). */
export const MemberDoorAccessSchema = v.object({
  kisiUser: v.nullable(v.object({ id: v.number(), name: v.nullable(v.string()), email: v.string(), accessEnabled: v.boolean() })),
  accessSync: AccessSyncSchema,
});
export type MemberDoorAccess = v.InferOutput<typeof MemberDoorAccessSchema>;
