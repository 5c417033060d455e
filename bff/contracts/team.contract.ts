import * as v from 'valibot';
import { AuthResponseSchema, RoleSchema } from './auth.contract';
import { EmailSchema, EraseQuerySchema, IdParamSchema, NoContentSchema, atMost, requiredText } from './common.contract';
import { endpoint } from './endpoint.contract';
import { NewPasskeySchema, WebAuthnOptionsSchema } from './webauthn.contract';

/**
 * The team in the app (issue 49): admins invite people by a one-use link, change roles, deactivate,
 * reactivate, reset by link and delete; the invitee and the person who forgot their password open
 * their link without an account. A link's token travels in the address's fragment (`/join#…`,
 * `/reset#…`), which browsers never send, and reaches the API only in a body: no log holds it.
 */

export const ACCOUNT_STATUSES = ['active', 'deactivated'] as const;
export const AccountStatusSchema = v.picklist(ACCOUNT_STATUSES, 'Expected active or deactivated');
export type AccountStatus = v.InferOutput<typeof AccountStatusSchema>;

/** A password a person chooses: long enough that guessing is not worth it (NIST SP 800-63B: length, no composition rules). */
export const NewPasswordSchema = v.pipe(
  v.string('Choose a password'),
  v.nonEmpty('Choose a password'),
  v.minLength(12, 'Use at least 12 characters'),
  v.maxLength(1024, atMost(1024)),
);

export const PersonNameSchema = requiredText('Enter your name', 120);

/** A link's secret as the page read it from its address. */
export const LinkTokenSchema = v.pipe(v.string('This link is incomplete'), v.nonEmpty('This link is incomplete'), v.maxLength(200, 'This link is not valid'));

export const TeamAccountSchema = v.object({
  id: v.number(),
  email: v.string(),
  name: v.string(),
  role: RoleSchema,
  status: AccountStatusSchema,
  createdAt: v.string(),
  /** The last time they signed in (password or passkey), null when never. */
  lastSignInAt: v.nullable(v.string()),
  /** Sessions open now. */
  openSessions: v.number(),
  passkeys: v.number(),
});
export type TeamAccount = v.InferOutput<typeof TeamAccountSchema>;

/** An invitation not yet used, withdrawn or run out. */
export const InvitationSchema = v.object({
  id: v.number(),
  email: v.string(),
  role: RoleSchema,
  createdAt: v.string(),
  expiresAt: v.string(),
  /** Who made it (their name), null when that account is gone. */
  invitedBy: v.nullable(v.string()),
});
export type Invitation = v.InferOutput<typeof InvitationSchema>;

export const TeamResponseSchema = v.object({
  accounts: v.array(TeamAccountSchema),
  invitations: v.array(InvitationSchema),
});
export type TeamResponse = v.InferOutput<typeof TeamResponseSchema>;

/** How long a link stays good, in hours: from an hour to a fortnight. */
export const LINK_HOURS = [1, 24, 72, 168, 336] as const;
const linkHours = v.pipe(
  v.number('Choose how long the link stays valid'),
  v.picklist(LINK_HOURS, `Expected one of ${LINK_HOURS.join(', ')} hours`),
);

export const CreateInvitationSchema = v.object({
  email: EmailSchema,
  role: RoleSchema,
  expiresInHours: v.optional(linkHours, 72),
});
export type CreateInvitation = v.InferInput<typeof CreateInvitationSchema>;

/** A link made now: its secret is in this answer only (stored hashed), like a day pass's. */
export const AccountLinkSchema = v.object({ token: v.string(), expiresAt: v.string() });
export const CreatedInvitationSchema = v.object({ invitation: InvitationSchema, link: AccountLinkSchema });

export const CreateResetLinkSchema = v.object({ expiresInHours: v.optional(linkHours, 24) });

export const ChangeRoleSchema = v.object({ role: RoleSchema });
export const ChangeStatusSchema = v.object({ status: AccountStatusSchema });

export const TokenBodySchema = v.object({ token: LinkTokenSchema });

/** What an invitation link offers, before the invitee answers it. */
export const InvitationPreviewSchema = v.object({ email: v.string(), role: RoleSchema, expiresAt: v.string() });

export const AcceptInvitationSchema = v.object({ token: LinkTokenSchema, name: PersonNameSchema, password: NewPasswordSchema });
export type AcceptInvitation = v.InferInput<typeof AcceptInvitationSchema>;

/** Asking to join with a passkey instead: the link's secret, and the name the browser's passkey prompt shows. */
export const InvitationPasskeyOptionsSchema = v.object({ token: LinkTokenSchema, name: PersonNameSchema });
/** Answering an invitation with a passkey the browser made for its options (no password: the passkey is the way in). */
export const AcceptInvitationWithPasskeySchema = v.object({ token: LinkTokenSchema, name: PersonNameSchema, passkey: NewPasskeySchema });
export type AcceptInvitationWithPasskey = v.InferInput<typeof AcceptInvitationWithPasskeySchema>;

/** What a reset link is for, before a new password is chosen. */
export const ResetPreviewSchema = v.object({ email: v.string(), name: v.string(), expiresAt: v.string() });
export const UseResetLinkSchema = v.object({ token: LinkTokenSchema, password: NewPasswordSchema });

const admins = ['admin'] as const;

export const teamApi = {
  list: endpoint({ method: 'GET', path: '/api/team', summary: 'Every account (role, status, last sign-in) and the invitations still open', access: admins, response: TeamResponseSchema }),
  invite: endpoint({
    method: 'POST',
    path: '/api/team/invitations',
    summary: 'Invite someone by a one-use link (its secret is in this answer only); 409 when the email has an account',
    access: admins,
    body: CreateInvitationSchema,
    response: CreatedInvitationSchema,
    status: 201,
    errors: [409],
  }),
  withdrawInvitation: endpoint({ method: 'DELETE', path: '/api/team/invitations/:id', summary: 'Withdraw an open invitation: its link stops working', access: admins, params: IdParamSchema, response: NoContentSchema, status: 204, errors: [404] }),
  changeRole: endpoint({
    method: 'PUT',
    path: '/api/team/accounts/:id/role',
    summary: "Change an account's role (takes effect on its next request); the last active admin keeps theirs (409)",
    access: admins,
    params: IdParamSchema,
    body: ChangeRoleSchema,
    response: TeamAccountSchema,
    errors: [404, 409],
  }),
  changeStatus: endpoint({
    method: 'PUT',
    path: '/api/team/accounts/:id/status',
    summary: 'Deactivate (its sessions end on every instance at once) or reactivate an account; never the last active admin, nor yourself (409)',
    access: admins,
    params: IdParamSchema,
    body: ChangeStatusSchema,
    response: TeamAccountSchema,
    errors: [404, 409],
  }),
  resetLink: endpoint({
    method: 'POST',
    path: '/api/team/accounts/:id/reset-link',
    summary: 'A one-use link to choose a new password (its secret is in this answer only); an earlier open one stops working',
    access: admins,
    params: IdParamSchema,
    body: CreateResetLinkSchema,
    response: AccountLinkSchema,
    status: 201,
    errors: [404, 409],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/team/accounts/:id',
    summary: 'Delete an account and end its sessions; never the last active admin, nor yourself (409). `erase=true` also erases their name and email from door events, conversations, messages and the audit trail',
    access: admins,
    params: IdParamSchema,
    query: EraseQuerySchema,
    response: NoContentSchema,
    status: 204,
    errors: [404, 409],
  }),
};

/** What the invitee and the person with a reset link call, without an account. */
export const accountLinksApi = {
  previewInvitation: endpoint({
    method: 'POST',
    path: '/api/team/invitations/preview',
    summary: 'What an invitation link offers (email, role, until when); 404 when it was used, withdrawn or ran out',
    access: 'public',
    body: TokenBodySchema,
    response: InvitationPreviewSchema,
    errors: [404, 429],
  }),
  acceptInvitation: endpoint({
    method: 'POST',
    path: '/api/team/invitations/accept',
    summary: 'Answer an invitation: creates the account with its name and password and signs it in (sets `sid`)',
    access: 'public',
    body: AcceptInvitationSchema,
    response: AuthResponseSchema,
    status: 201,
    errors: [404, 409, 429],
  }),
  invitationPasskeyOptions: endpoint({
    method: 'POST',
    path: '/api/team/invitations/passkey-options',
    summary: "Options to create a passkey for an invitation's email (a fresh user handle and challenge), to join with instead of a password",
    access: 'public',
    body: InvitationPasskeyOptionsSchema,
    response: WebAuthnOptionsSchema,
    errors: [404, 409, 429],
  }),
  acceptInvitationWithPasskey: endpoint({
    method: 'POST',
    path: '/api/team/invitations/accept-passkey',
    summary: 'Answer an invitation with a passkey made for its options (origin, RP id and challenge checked): creates the account without a password and signs it in (sets `sid`)',
    access: 'public',
    body: AcceptInvitationWithPasskeySchema,
    response: AuthResponseSchema,
    status: 201,
    errors: [404, 409, 429],
  }),
  previewReset: endpoint({
    method: 'POST',
    path: '/api/account/reset/preview',
    summary: 'Whose password a reset link sets; 404 when it was used, replaced or ran out',
    access: 'public',
    body: TokenBodySchema,
    response: ResetPreviewSchema,
    errors: [404, 429],
  }),
  useReset: endpoint({
    method: 'POST',
    path: '/api/account/reset',
    summary: "Choose a new password by a reset link: the account's other sessions end, and this browser is signed in",
    access: 'public',
    body: UseResetLinkSchema,
    response: AuthResponseSchema,
    errors: [404, 429],
  }),
};
