import * as v from 'valibot';
import { EmailSchema, IdParamSchema, NoContentSchema, idNumber } from './common.contract';
import { endpoint } from './endpoint.contract';
import { KisiWebhookBodySchema } from './webhook.contract';

/**
 * Kisi through the BFF (docs/ARCHITECTURE.md "Kisi"). `/api/kisi/*` forwards Kisi's own shapes unchanged, so these
 * schemas describe Kisi's JSON (snake_case, loose: Kisi may add fields) for the /kisi pages, plus
 * the request bodies the app sends and the emulator control endpoint.
 *
 * Conventions the pages rely on:
 * - Lists are bare arrays; paging is `?limit=&offset=` and the `X-Collection-Range: start-end/total`
 *   response header (read it with `parseCollectionRange`). Limits: users and members 50 by default
 *   (max 100), locks and events 50 (250), groups, group_links and role_assignments 10 (250). `query=` searches.
 * - Create → 200 with the object; PATCH and DELETE → 204 with no body (re-read after a PATCH).
 * - Kisi errors pass through: `{error, code}` (403/404/409/503), `{errors: {field: [messages]}}` (422).
 *   The BFF's own refusals are problems: 400 bad id, 401 no session, 403 role, 404 not forwarded,
 *   502 Kisi unreachable or rejecting the server's key, 504 Kisi silent.
 */

export const KisiErrorSchema = v.looseObject({ error: v.string(), code: v.string() });
export type KisiErrorBody = v.InferOutput<typeof KisiErrorSchema>;
export const KisiValidationErrorsSchema = v.looseObject({ errors: v.record(v.string(), v.array(v.string())) });
export type KisiValidationErrors = v.InferOutput<typeof KisiValidationErrorsSchema>;

const ref = (type: string) => v.looseObject({ id: v.number(), resource_type: v.literal(type), name: v.string() });
const dateTime = v.nullable(v.string());

export const KisiUserSchema = v.looseObject({
  id: v.number(),
  resource_type: v.literal('User'),
  name: v.string(),
  email: v.string(),
  image: v.nullable(v.string()),
  access_enabled: v.boolean(),
  /** Read-only (SCIM); effective access needs both flags. */
  scim_access_enabled: v.boolean(),
  password_flow_enabled: v.boolean(),
  otp_required_for_login: v.boolean(),
  last_accessed_at: dateTime,
  notes: v.nullable(v.string()),
  metadata: v.record(v.string(), v.unknown()),
  groups_count: v.optional(v.number()),
  created_at: v.string(),
  updated_at: v.string(),
});
export type KisiUser = v.InferOutput<typeof KisiUserSchema>;
export const KisiUserListSchema = v.array(KisiUserSchema);

/** `PATCH /api/kisi/users/:id` body. Kisi ignores `scim_access_enabled` (read-only): re-read the user after the 204. */
export const KisiUserAccessUpdateSchema = v.object({
  user: v.object({ access_enabled: v.boolean(), scim_access_enabled: v.optional(v.boolean()) }),
});
export type KisiUserAccessUpdate = v.InferOutput<typeof KisiUserAccessUpdateSchema>;

export const KisiMemberSchema = v.looseObject({
  id: v.number(),
  resource_type: v.literal('Member'),
  name: v.string(),
  access_enabled: v.boolean(),
  scim_access_enabled: v.boolean(),
  last_accessed_at: dateTime,
  role_id: v.string(),
  user_id: v.number(),
  user: v.looseObject({ id: v.number(), email: v.string(), name: v.string() }),
  created_at: v.string(),
});
export type KisiMember = v.InferOutput<typeof KisiMemberSchema>;
export const KisiMemberListSchema = v.array(KisiMemberSchema);

/** One of Kisi's three role-assignment variants: what it applies to (organisation, place or group) and its validity. */
export const KisiRoleAssignmentSchema = v.looseObject({
  id: v.number(),
  resource_type: v.literal('RoleAssignment'),
  role_id: v.string(),
  applies_to_type: v.picklist(['Organization', 'Place', 'Group']),
  applies_to_id: v.number(),
  applies_to: v.looseObject({ id: v.number(), resource_type: v.string(), name: v.string() }),
  assignee_type: v.string(),
  assignee_id: v.number(),
  /** Only on group assignments. */
  valid_from: v.optional(dateTime),
  valid_until: v.optional(dateTime),
  created_at: v.string(),
});
export type KisiRoleAssignment = v.InferOutput<typeof KisiRoleAssignmentSchema>;
export const KisiRoleAssignmentListSchema = v.array(KisiRoleAssignmentSchema);

export const KisiGroupSchema = v.looseObject({
  id: v.number(),
  resource_type: v.literal('Group'),
  name: v.string(),
  description: v.nullable(v.string()),
  users_count: v.number(),
  locks_count: v.number(),
  place_id: v.nullable(v.number()),
  place: v.optional(ref('Place')),
  created_at: v.string(),
});
export type KisiGroup = v.InferOutput<typeof KisiGroupSchema>;
export const KisiGroupListSchema = v.array(KisiGroupSchema);

/** `POST /api/kisi/groups` body (Kisi answers 422 `{errors: {name: ["can't be blank"]}}` for a blank name). */
export const KisiGroupCreateSchema = v.object({
  group: v.object({ name: v.string(), description: v.optional(v.nullable(v.string())) }),
});
export type KisiGroupCreate = v.InferOutput<typeof KisiGroupCreateSchema>;

export const KisiGroupLinkSchema = v.looseObject({
  id: v.number(),
  resource_type: v.literal('GroupLink'),
  name: v.string(),
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  link_enabled: v.boolean(),
  quick_response_code_type: v.nullable(v.picklist(['online', 'offline'])),
  valid_from: dateTime,
  valid_until: dateTime,
  last_used_at: dateTime,
  group_id: v.number(),
  group: ref('Group'),
  created_at: v.string(),
});
export type KisiGroupLink = v.InferOutput<typeof KisiGroupLinkSchema>;
export const KisiGroupLinkListSchema = v.array(KisiGroupLinkSchema);

/** The create answer adds the link's secret (its access credential) and QR code fields. */
export const KisiGroupLinkCreatedSchema = v.looseObject({
  ...KisiGroupLinkSchema.entries,
  secret: v.nullable(v.string()),
  quick_response_code_token: v.nullable(v.string()),
  quick_response_code_image: v.nullable(v.string()),
});
export type KisiGroupLinkCreated = v.InferOutput<typeof KisiGroupLinkCreatedSchema>;

/**
 * A link that has ended before it is made opens no door, yet Kisi takes it (and shows it Expired at
 * once): the form and the BFF's proxy refuse it in these words (issue 52).
 */
export const LINK_ENDED = 'That time has passed: the pass would open no door. Pick a later end.';
/** Whether a link's end is still to come; no end, or one that is not a time (Kisi's 422 says so), is not this check's to refuse. */
export const linkEndsLater = (validUntil: unknown, now = Date.now()): boolean => {
  const until = typeof validUntil === 'string' ? Date.parse(validUntil) : NaN;
  return Number.isNaN(until) || until > now;
};

/**
 * `POST /api/kisi/group_links` body. `group_id` may be left out: the BFF fills in the configured
 * group (KISI_GROUP_ID; in emulator mode the seeded "Gym Members").
 */
export const KisiGroupLinkCreateSchema = v.object({
  group_link: v.pipe(
    v.object({
      name: v.string(),
      email: v.optional(v.nullable(v.string())),
      quick_response_code_type: v.optional(v.nullable(v.picklist(['online', 'offline']))),
      group_id: v.optional(v.number()),
      valid_from: v.optional(dateTime),
      valid_until: v.optional(dateTime),
    }),
    v.forward(
      v.check((link) => linkEndsLater(link.valid_until), LINK_ENDED),
      ['valid_until'],
    ),
  ),
});
export type KisiGroupLinkCreate = v.InferOutput<typeof KisiGroupLinkCreateSchema>;

export const KisiLockSchema = v.looseObject({
  id: v.number(),
  resource_type: v.literal('Lock'),
  name: v.string(),
  description: v.nullable(v.string()),
  online: v.nullable(v.boolean()),
  locked_down: v.boolean(),
  unlocked: v.boolean(),
  place_id: v.number(),
  place: v.looseObject({ id: v.number(), name: v.string() }),
});
export type KisiLock = v.InferOutput<typeof KisiLockSchema>;
export const KisiLockListSchema = v.array(KisiLockSchema);

/** `POST /api/kisi/locks/:id/unlock` → 200 this; failures are `{error, code}` (404 fad10e, 409 fad001 locked down, 503 fad107 offline). */
export const KisiUnlockResponseSchema = v.object({ message: v.literal('Unlocked!') });

/**
 * One entry of Kisi's event log (`GET /events`, newest first), the superset of a webhook body: the
 * BFF reads it to store the events whose webhooks it missed, through the webhook receiver's own
 * tolerant reading, so only what identifies and orders an event is required here.
 */
export const KisiLogEventSchema = v.looseObject({
  ...KisiWebhookBodySchema.entries,
  uuid: v.string(),
  type: v.string(),
  created_at: v.string(),
  place_id: v.optional(v.nullable(v.number())),
  error_code: v.optional(v.nullable(v.string())),
  error_message: v.optional(v.nullable(v.string())),
});
export type KisiLogEvent = v.InferOutput<typeof KisiLogEventSchema>;
export const KisiLogEventListSchema = v.array(KisiLogEventSchema);

/** `X-Collection-Range: start-end/total` → paging numbers (`end` is not clamped by Kisi; `*`-start means empty). */
export function parseCollectionRange(header: string | null | undefined): { start: number; end: number; total: number } | undefined {
  const match = /^(\d+|\*)(?:-(\d+))?\/(\d+)$/.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const total = Number(match[3]);
  if (match[1] === '*') return { start: 0, end: -1, total };
  return { start: Number(match[1]), end: Number(match[2] ?? match[1]), total };
}

// ---- the Kisi endpoints the app uses, through the BFF's proxy ----------------------------------

/** Where the BFF forwards Kisi: `/api/kisi/users` → `${KISI_BASE_URL}/users`. */
export const KISI_PROXY_PREFIX = '/api/kisi';

const count = v.pipe(v.string(), v.regex(/^\d{1,9}$/, 'Expected a whole number'), v.transform(Number));
/** Kisi's paging and search of every list (it clamps `limit` to the list's maximum); `ids` picks items by id, comma-separated. */
const KisiListQuerySchema = v.object({
  limit: v.optional(count),
  offset: v.optional(count),
  query: v.optional(v.string()),
  ids: v.optional(v.pipe(v.string(), v.regex(/^\d{1,9}(,\d{1,9})*$/, 'Expected ids separated by commas'))),
});
/** `user_id=me`: the Kisi user the API key belongs to (Kisi's own filter; the BFF learns the integration's user so). */
const KisiUserListQuerySchema = v.object({ ...KisiListQuerySchema.entries, email: v.optional(v.string()), user_id: v.optional(v.union([count, v.literal('me')])) });
/**
 * The event log's filters (docs/kisi-api.md §4 and the emulator's GET /events): `type` a
 * comma-separated list, `since` (at or after) and `until` (before) ISO-8601 times; limit 50 (max 250).
 */
const KisiEventListQuerySchema = v.object({
  limit: v.optional(count),
  offset: v.optional(count),
  type: v.optional(v.string()),
  since: v.optional(v.string()),
  until: v.optional(v.string()),
});
const KisiRoleAssignmentQuerySchema = v.object({ user_id: count, limit: v.optional(count), offset: v.optional(count) });

/** Kisi's own answers pass through the proxy; the proxy adds 502 (unreachable or key refused), 504 (silent) and 429 is Kisi's. */
const KISI_FAILURES = [404, 429, 502, 504] as const;
const admin = ['admin'] as const;
/** The front desk: staff issue and revoke a member's day pass (an access link) at the counter; runners never reach Kisi. */
const desk = ['staff'] as const;
const list = { paging: 'collection-range', errors: KISI_FAILURES } as const;

/**
 * The proxy forwards exactly these (method and path) and lets exactly these roles call each; the
 * BFF's own door-access sync calls Kisi through the same descriptions.
 */
export const kisiApi = {
  listUsers: endpoint({ method: 'GET', path: '/api/kisi/users', summary: "Kisi's users", access: admin, query: KisiUserListQuerySchema, response: KisiUserListSchema, ...list }),
  getUser: endpoint({ method: 'GET', path: '/api/kisi/users/:id', summary: 'One Kisi user', access: admin, params: IdParamSchema, response: KisiUserSchema, errors: KISI_FAILURES }),
  updateUser: endpoint({
    method: 'PATCH',
    path: '/api/kisi/users/:id',
    summary: "Switch a Kisi user's access (Kisi answers 204; scim_access_enabled is read-only)",
    access: admin,
    params: IdParamSchema,
    body: KisiUserAccessUpdateSchema,
    response: NoContentSchema,
    status: 204,
    errors: [...KISI_FAILURES, 422],
  }),
  listRoleAssignments: endpoint({
    method: 'GET',
    path: '/api/kisi/role_assignments',
    summary: "A Kisi user's role assignments",
    access: admin,
    query: KisiRoleAssignmentQuerySchema,
    response: KisiRoleAssignmentListSchema,
    ...list,
  }),
  listMembers: endpoint({ method: 'GET', path: '/api/kisi/members', summary: "Kisi's organisation members", access: admin, query: KisiListQuerySchema, response: KisiMemberListSchema, ...list }),
  listGroups: endpoint({ method: 'GET', path: '/api/kisi/groups', summary: "Kisi's groups", access: admin, query: KisiListQuerySchema, response: KisiGroupListSchema, ...list }),
  createGroup: endpoint({
    method: 'POST',
    path: '/api/kisi/groups',
    summary: 'Create a Kisi group (422 with field messages for a blank name)',
    access: admin,
    body: KisiGroupCreateSchema,
    response: KisiGroupSchema,
    errors: [...KISI_FAILURES, 422],
  }),
  deleteGroup: endpoint({ method: 'DELETE', path: '/api/kisi/groups/:id', summary: 'Delete a Kisi group', access: admin, params: IdParamSchema, response: NoContentSchema, status: 204, errors: KISI_FAILURES }),
  listGroupLinks: endpoint({
    method: 'GET',
    path: '/api/kisi/group_links',
    summary: 'Access links (staff may read them: the gym member page shows a member’s links)',
    access: desk,
    query: KisiListQuerySchema,
    response: KisiGroupLinkListSchema,
    ...list,
  }),
  createGroupLink: endpoint({
    method: 'POST',
    path: '/api/kisi/group_links',
    summary: 'Create an access link (staff: a member’s day pass); the BFF puts it in the configured group unless one is named. Answers the secret once',
    access: desk,
    body: KisiGroupLinkCreateSchema,
    response: KisiGroupLinkCreatedSchema,
    errors: [...KISI_FAILURES, 422],
  }),
  deleteGroupLink: endpoint({
    method: 'DELETE',
    path: '/api/kisi/group_links/:id',
    summary: 'Delete an access link, staff too (it stops opening doors at once)',
    access: desk,
    params: IdParamSchema,
    response: NoContentSchema,
    status: 204,
    errors: KISI_FAILURES,
  }),
  listEvents: endpoint({
    method: 'GET',
    path: '/api/kisi/events',
    summary: "Kisi's event log, newest first (the BFF reads it to store the door events whose webhooks it missed)",
    access: admin,
    query: KisiEventListQuerySchema,
    response: KisiLogEventListSchema,
    ...list,
  }),
  listLocks: endpoint({ method: 'GET', path: '/api/kisi/locks', summary: "Kisi's locks (doors)", access: admin, query: KisiListQuerySchema, response: KisiLockListSchema, ...list }),
  unlockLock: endpoint({
    method: 'POST',
    path: '/api/kisi/locks/:id/unlock',
    summary: 'Unlock a door remotely (409 locked down, 503 offline)',
    access: admin,
    params: IdParamSchema,
    response: KisiUnlockResponseSchema,
    errors: [...KISI_FAILURES, 409, 503],
  }),
};

// ---- emulator control (emulator mode only, admin only) -----------------------------------

/** `POST /api/kisi-emulator/unlocks`: simulates `email` unlocking a door (the first they may open unless `lockId`). */
export const EmulatorUnlockRequestSchema = v.object({
  email: EmailSchema,
  lockId: v.optional(idNumber('Expected a lock id')),
});
export type EmulatorUnlockRequest = v.InferOutput<typeof EmulatorUnlockRequestSchema>;

/** 200 with the event Kisi recorded and sent by webhook (success false when the door refused: no access, locked down, offline). */
export const EmulatorUnlockResultSchema = v.object({
  success: v.boolean(),
  message: v.string(),
  event: v.looseObject({
    uuid: v.string(),
    type: v.literal('lock.unlock'),
    actor_id: v.number(),
    actor_name: v.string(),
    object_id: v.number(),
    object_name: v.string(),
    success: v.boolean(),
    error_code: v.nullable(v.string()),
    error_message: v.nullable(v.string()),
    created_at: v.string(),
  }),
});
export type EmulatorUnlockResult = v.InferOutput<typeof EmulatorUnlockResultSchema>;

export const emulatorControlApi = {
  unlock: endpoint({
    method: 'POST',
    path: '/api/kisi-emulator/unlocks',
    summary: 'Emulator mode only: make a person of the emulated organisation unlock a door (the signed webhook follows)',
    access: admin,
    body: EmulatorUnlockRequestSchema,
    response: EmulatorUnlockResultSchema,
    errors: [404],
  }),
};
