import * as v from 'valibot';
import { CURSOR_PAGE_ENTRIES, isoInstant, pageOf } from './common.contract';
import { endpoint } from './endpoint.contract';

/** What an audit entry is about: the kinds of change the trail records. */
export const AUDIT_KINDS = ['member', 'owner', 'door_access', 'unlock', 'access_link', 'kisi', 'stall', 'menu_item', 'chat_channel', 'account', 'session'] as const;
export const AuditKindSchema = v.picklist(AUDIT_KINDS, `Expected one of: ${AUDIT_KINDS.join(', ')}`);
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** Each kind in words, for the filter and the list. */
export const AUDIT_KIND_LABELS: Record<AuditKind, string> = {
  member: 'Members',
  owner: 'Owners',
  door_access: 'Door access',
  unlock: 'Remote unlocks',
  access_link: 'Access links',
  kisi: 'Kisi users and groups',
  stall: 'Stalls',
  menu_item: 'Menu items',
  chat_channel: 'Chat channels',
  account: 'Accounts',
  session: 'Sign-ins',
};

/** A field's value before or after a change, as stored (null: none, or not known). */
export const AuditValueSchema = v.union([v.string(), v.number(), v.boolean(), v.null()]);
export type AuditValue = v.InferOutput<typeof AuditValueSchema>;

export const AuditChangeSchema = v.object({ field: v.string(), before: AuditValueSchema, after: AuditValueSchema });
export type AuditChange = v.InferOutput<typeof AuditChangeSchema>;

/** Who made a change: the account as it was then (null: the command line or the server itself). */
export const AuditActorSchema = v.nullable(v.object({ id: v.number(), email: v.string(), name: v.string(), role: v.string() }));
export type AuditActor = v.InferOutput<typeof AuditActorSchema>;

export const AuditEntrySchema = v.object({
  id: v.number(),
  /** When (UTC ISO-8601). */
  at: v.string(),
  actor: AuditActorSchema,
  kind: AuditKindSchema,
  /** What was done, in words: `created`, `paused`, `deleted`, `unlocked`… */
  action: v.string(),
  /** The changed thing's id where it has one (a member's id, a Kisi lock's id). */
  subjectId: v.nullable(v.string()),
  /** The changed thing in words, as it was then ("Ada Lovelace <ada@members.example>"). */
  subject: v.string(),
  /** Each changed field, before → after. */
  changes: v.array(AuditChangeSchema),
});
export type AuditEntry = v.InferOutput<typeof AuditEntrySchema>;

/** The trail's filters: who (name or email contains), what kind, and when (`since` ≤ at < `before`), as the door events' filters. */
export const AuditFilterSchema = v.object({
  person: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(254, 'A name or email is at most 254 characters'))),
  kind: v.optional(AuditKindSchema),
  since: v.optional(isoInstant()),
  before: v.optional(isoInstant()),
});
export type AuditFilter = v.InferOutput<typeof AuditFilterSchema>;

/** A page of the trail, by the cursor of its Next or Previous link (`before` is the trail's time filter). */
export const AuditListQuerySchema = v.object({ ...CURSOR_PAGE_ENTRIES, ...AuditFilterSchema.entries });
export type AuditListQuery = v.InferOutput<typeof AuditListQuerySchema>;

export const auditApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/audit',
    summary: 'The audit trail, newest first, by cursor (`next` or `previous`: the answer’s own); `person`, `kind`, `since` and `before` narrow it (the total stops at 1,000 past the page). Nothing edits or deletes it.',
    access: ['admin'],
    query: AuditListQuerySchema,
    response: pageOf(AuditEntrySchema),
  }),
  export: endpoint({
    method: 'GET',
    path: '/api/audit/export.csv',
    summary: 'The audit entries the same filters select, newest first, as a CSV attachment (streamed)',
    access: ['admin'],
    query: AuditFilterSchema,
    response: v.string(),
    stream: 'file',
  }),
};
