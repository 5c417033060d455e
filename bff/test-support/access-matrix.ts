import type { HttpMethod } from '../contracts/endpoint.contract';

/**
 * Who may call what: every endpoint of the API (the BFF's own and Kisi's through the proxy), by
 * `METHOD /api/path`, and what a caller with no session, a runner, staff and an admin get.
 *
 * Written by hand from the rules (docs/ARCHITECTURE.md "API conventions", DESIGN §5–6), not from
 * each endpoint's `access`: `bff/auth-matrix.test.ts` calls every endpoint as each of the four and
 * holds the answers to this table, and checks that the table and the endpoints' `access` say the
 * same and that every endpoint has exactly one row, so a new endpoint cannot be added without one.
 */

/** `allowed`: the call gets past the session and role checks (whatever it answers then); else the refusal's status. */
export type AccessOutcome = 'allowed' | 401 | 403;
export const CALLERS = ['none', 'runner', 'staff', 'admin'] as const;
export type Caller = (typeof CALLERS)[number];
export type AccessRow = Readonly<Record<Caller, AccessOutcome>>;
export type EndpointKey = `${HttpMethod} /api${string}`;

/** Anyone, signed in or not. */
const everyone: AccessRow = { none: 'allowed', runner: 'allowed', staff: 'allowed', admin: 'allowed' };
/** Any account. */
const signedIn: AccessRow = { none: 401, runner: 'allowed', staff: 'allowed', admin: 'allowed' };
/** The front desk: staff and admins. */
const frontDesk: AccessRow = { none: 401, runner: 403, staff: 'allowed', admin: 'allowed' };
/** The food court's board and the kitchen chat: runners too. */
const crew: AccessRow = { none: 401, runner: 'allowed', staff: 'allowed', admin: 'allowed' };
const adminsOnly: AccessRow = { none: 401, runner: 403, staff: 403, admin: 'allowed' };

export const ACCESS_MATRIX: Readonly<Record<EndpointKey, AccessRow>> = {
  // Status and the API document: public.
  'GET /api': everyone,
  'GET /api/bad': everyone,
  // Probes of load balancers and orchestrators: no session (and nothing in them to protect).
  'GET /api/health/live': everyone,
  'GET /api/health/ready': everyone,
  'GET /api/openapi.json': everyone,

  // Signing in and out; the spec's getAuth needs a session, the app's session read answers anyone (user null for a visitor).
  'POST /api/auth/login': everyone,
  'POST /api/auth/logout': everyone,
  'GET /api/auth/getAuth': signedIn,
  'GET /api/auth/session': everyone,

  // The team (issue 49): admins invite, change roles and statuses, make reset links and delete accounts.
  'GET /api/team': adminsOnly,
  'POST /api/team/invitations': adminsOnly,
  'DELETE /api/team/invitations/:id': adminsOnly,
  'PUT /api/team/accounts/:id/role': adminsOnly,
  'PUT /api/team/accounts/:id/status': adminsOnly,
  'POST /api/team/accounts/:id/reset-link': adminsOnly,
  'DELETE /api/team/accounts/:id': adminsOnly,
  // An invitation's or reset link's holder has no session (or someone else's): the link's secret is the credential.
  'POST /api/team/invitations/preview': everyone,
  'POST /api/team/invitations/accept': everyone,
  'POST /api/team/invitations/passkey-options': everyone,
  'POST /api/team/invitations/accept-passkey': everyone,
  'POST /api/account/reset/preview': everyone,
  'POST /api/account/reset': everyone,

  // Each person's own account, sessions included: any account, about itself only.
  'GET /api/account': signedIn,
  'PATCH /api/account': signedIn,
  'PUT /api/account/password': signedIn,
  'DELETE /api/account/sessions/:id': signedIn,
  'POST /api/account/sessions/end-others': signedIn,
  // Passkeys: each person's own; signing in with one answers anyone (it is how they sign in).
  'POST /api/account/passkeys/options': signedIn,
  'POST /api/account/passkeys': signedIn,
  'PATCH /api/account/passkeys/:id': signedIn,
  'DELETE /api/account/passkeys/:id': signedIn,
  'POST /api/auth/passkey/options': everyone,
  'POST /api/auth/passkey': everyone,

  // Live events: any session (each role hears only its own kinds of event).
  'GET /api/events': signedIn,

  // Kisi's signed webhook: no session; its signature is its credential.
  'POST /api/webhooks/kisi': everyone,
  // The received events and a member's unlocks: the front desk.
  'GET /api/audit': adminsOnly,
  'GET /api/audit/export.csv': adminsOnly,
  // Backups (issue 50): what there is, and one taken now: admins.
  'GET /api/operations/backups': adminsOnly,
  'POST /api/operations/backups': adminsOnly,
  // Operations (issue 50): what retention keeps and purged.
  'GET /api/operations/retention': adminsOnly,
  'GET /api/webhook': frontDesk,
  'GET /api/webhook/export.csv': frontDesk,
  'GET /api/webhook/filters': frontDesk,
  'DELETE /api/webhook/:id': frontDesk,
  'GET /api/webhooks/unlocks': frontDesk,

  // Food court: stalls, menus and ordering are the diners' (no account); staff keep stalls and menus.
  'GET /api/pt/stalls': everyone,
  'GET /api/pt/stalls/:id': everyone,
  'GET /api/pt/menu': everyone,
  'GET /api/pt/menu/stream': everyone,
  'POST /api/pt/order': everyone,
  'GET /api/pt/orders/:id': everyone,
  'GET /api/pt/orders/:id/stream': everyone,
  'POST /api/pt/stalls': frontDesk,
  'PATCH /api/pt/stalls/:id': frontDesk,
  'DELETE /api/pt/stalls/:id': frontDesk,
  'POST /api/pt/stalls/:id/items': frontDesk,
  'PATCH /api/pt/items/:id': frontDesk,
  'DELETE /api/pt/items/:id': frontDesk,
  // The day's figures: the front desk.
  'GET /api/pt/reports': frontDesk,
  'GET /api/pt/reports/export.csv': frontDesk,
  // The runner board.
  'GET /api/pt/orders': crew,
  'PATCH /api/pt/orders/:id': crew,
  // A stall's kitchen screen: the crew (a tablet in the kitchen signs in as a runner or staff).
  'GET /api/pt/kitchen/:id/tickets': crew,
  'PATCH /api/pt/kitchen/:id/tickets/:orderId': crew,
  // A kitchen marks its own stall's dishes sold out (kitchens are not bound to one stall: a tablet signs in as a runner or staff).
  'PATCH /api/pt/kitchen/:id/items/:itemId': crew,
  'PATCH /api/pt/kitchen/:id/tickets/:orderId/lines/:lineId': crew,

  // Staff chat: runners read and write the channels open to them; only admins open and change channels.
  'GET /api/chat/channels': crew,
  'GET /api/chat/channels/:id/messages': crew,
  'POST /api/chat/channels/:id/messages': crew,
  'POST /api/chat/channels/:id/read': crew,
  'PATCH /api/chat/messages/:id': crew,
  'DELETE /api/chat/messages/:id': crew,
  'POST /api/chat/channels': adminsOnly,
  'PATCH /api/chat/channels/:id': adminsOnly,

  // Guest help: a guest starts, reads and answers their own conversation by its token; the front desk handles them all.
  'POST /api/conversations': everyone,
  'GET /api/conversations/:id': everyone,
  'POST /api/conversations/:id/messages': everyone,
  'GET /api/conversations/:id/stream': everyone,
  'GET /api/conversations': frontDesk,
  'GET /api/conversations/waiting': frontDesk,
  'PATCH /api/conversations/:id': frontDesk,
  'POST /api/conversations/:id/read': frontDesk,

  // Uploads: staff.
  'GET /api/uploads/limits': frontDesk,
  'GET /api/uploads': frontDesk,
  'GET /api/uploads/:id/download': frontDesk,
  'DELETE /api/uploads/:id': frontDesk,

  // Sample pages and the catalogue: public reads.
  'GET /api/samples/pokemon': everyone,
  'GET /api/samples/pokemon/:idOrName': everyone,
  'GET /api/samples/rick': everyone,
  'GET /api/samples/posts': everyone,
  'GET /api/samples/posts/:id': everyone,
  'GET /api/samples/posts/:id/comments': everyone,
  'GET /api/samples/images': everyone,
  'GET /api/rest/pieces': everyone,
  'GET /api/rest/pieces/:id': everyone,
  'GET /api/rest/parts': everyone,
  'GET /api/rest/parts/:id': everyone,
  'GET /api/rest/categories': everyone,
  'GET /api/rest/part-categories': everyone,
  'GET /api/rest/pictures': everyone,

  // The gym: staff.
  'GET /api/gym/owners': frontDesk,
  'GET /api/gym/owners/:id': frontDesk,
  'POST /api/gym/owners': frontDesk,
  'DELETE /api/gym/owners/:id': frontDesk,
  'GET /api/gym/users': frontDesk,
  'GET /api/gym/users/:id': frontDesk,
  'POST /api/gym/users': frontDesk,
  'PATCH /api/gym/users/:id': frontDesk,
  'DELETE /api/gym/users/:id': frontDesk,
  'GET /api/gym/users/:id/access': frontDesk,
  'GET /api/gym/door-sync': frontDesk,
  'POST /api/gym/users/:id/access/sync': frontDesk,
  'GET /api/gym/users/:id/attendance': frontDesk,
  'GET /api/gym/visits/count': frontDesk,
  'POST /api/gym/users/import/preview': frontDesk,
  'POST /api/gym/users/import': frontDesk,

  // Kisi through the proxy: admins only, but staff read, issue and revoke access links (a member's day pass, decision 0057).
  'GET /api/kisi/users': adminsOnly,
  'GET /api/kisi/users/:id': adminsOnly,
  'PATCH /api/kisi/users/:id': adminsOnly,
  'GET /api/kisi/role_assignments': adminsOnly,
  'GET /api/kisi/members': adminsOnly,
  'GET /api/kisi/groups': adminsOnly,
  'POST /api/kisi/groups': adminsOnly,
  'DELETE /api/kisi/groups/:id': adminsOnly,
  'GET /api/kisi/group_links': frontDesk,
  'POST /api/kisi/group_links': frontDesk,
  'DELETE /api/kisi/group_links/:id': frontDesk,
  'GET /api/kisi/events': adminsOnly,
  'GET /api/kisi/locks': adminsOnly,
  'POST /api/kisi/locks/:id/unlock': adminsOnly,
  // The emulator's unlock simulation (emulator mode only).
  'POST /api/kisi-emulator/unlocks': adminsOnly,
};

/** An endpoint of a protocol spoken beside the contracts, whose methods include HEAD and OPTIONS. */
export type ProtocolKey = `${HttpMethod | 'HEAD' | 'OPTIONS'} /api${string}`;

/**
 * Endpoints outside the contracts: tus 1.0 uploads (decision 0033) stream bytes under protocol headers,
 * not JSON under schemas, so no endpoint object describes them. The same callers and outcomes:
 * `bff/auth-matrix.test.ts` calls each as the four, and `bff/endpoints.fuzz.test.ts` sends each
 * generated bad tus headers.
 */
export const PROTOCOL_ACCESS_MATRIX: Readonly<Record<ProtocolKey, AccessRow>> = {
  'POST /api/uploads/tus': frontDesk,
  'OPTIONS /api/uploads/tus': frontDesk,
  'HEAD /api/uploads/tus/:id': frontDesk,
  'PATCH /api/uploads/tus/:id': frontDesk,
  'DELETE /api/uploads/tus/:id': frontDesk,
};
