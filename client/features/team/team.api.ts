import { authApi, type AuthResponse } from '@contracts/auth.contract';
import type { Role } from '@contracts/endpoint.contract';
import { LINK_HOURS, accountLinksApi, teamApi, type TeamAccount, type TeamResponse } from '@contracts/team.contract';
import { teamRead } from '@pages/team.reads';
import { write } from '@/lib/endpoint-write';
import { paths } from '@/lib/paths';
import { setQueryData } from '@/lib/reads';
import { queryOf } from '@/lib/route-reads';
import { SESSION_KEY, announceSignIn } from '@/lib/session';

/** The team's writes and links (its read is declared in pages/team.reads.ts). */

/** What each role does, for the pickers: a name says little to someone inviting their first runner. */
export const ROLE_LABELS: Record<Role, string> = { runner: 'Runner', staff: 'Staff', admin: 'Admin' };
export const ROLE_HINTS: Record<Role, string> = {
  runner: 'The runner board, the kitchen screens and the chat.',
  staff: 'The front desk: members, door events, guest help, the food court.',
  admin: 'Everything, and the team, the audit trail and door access.',
};
/** A role after "is now", "become" or "join as": "a runner", "staff", "an admin". */
export const AS_ROLE: Record<Role, string> = { runner: 'a runner', staff: 'staff', admin: 'an admin' };
export const ROLES_IN_ORDER = ['runner', 'staff', 'admin'] as const satisfies readonly Role[];

/** How long a link stays good, in words, by its hours (the contract's choices). */
export const LINK_HOUR_LABELS: Record<(typeof LINK_HOURS)[number], string> = { 1: '1 hour', 24: '1 day', 72: '3 days', 168: '7 days', 336: '14 days' };

/**
 * Where a person starts once signed in: a runner's work is the runner board, everyone else's the
 * staff shell (where the login sends them too).
 */
export const firstPageFor = (role: Role): string => (role === 'runner' ? paths.ptRunner : paths.shell);

/** The pages a link opens; the secret rides in the fragment, which the browser never sends to a server. */
export const joinUrl = (token: string, origin = window.location.origin) => `${origin}${paths.join}#${token}`;
export const resetUrl = (token: string, origin = window.location.origin) => `${origin}${paths.resetPassword}#${token}`;

const teamKey = queryOf(teamRead).key;

/** One account changed, as the server answered it: into the list at once. */
const putAccount = (account: TeamAccount) =>
  setQueryData<TeamResponse>(teamKey, (team) => team && { ...team, accounts: team.accounts.map((a) => (a.id === account.id ? account : a)) });

// ---- writes (docs/decisions/0001-one-way-to-write.md) -------------------------------------------

export const invite = write(teamApi.invite, { stale: [teamApi.list] });
export const withdrawInvitation = write(teamApi.withdrawInvitation, { stale: [teamApi.list], staleWhenRefused: [teamApi.list] });
/** A role change reaches the session too when it was one's own (the header says the role). */
export const changeRole = write(teamApi.changeRole, { apply: putAccount, stale: [teamApi.list, authApi.session], staleWhenRefused: [teamApi.list] });
export const changeStatus = write(teamApi.changeStatus, { apply: putAccount, stale: [teamApi.list], staleWhenRefused: [teamApi.list] });
/** An earlier open reset link stops working; the list shows nothing of links, so nothing else changes. */
export const makeResetLink = write(teamApi.resetLink, { staleWhenRefused: [teamApi.list] });
export const removeAccount = write(teamApi.remove, { stale: [teamApi.list], staleWhenRefused: [teamApi.list] });

/** What a link offers, asked with its secret in the body (never in an address a log could keep). */
export const previewInvitation = write(accountLinksApi.previewInvitation);
export const previewReset = write(accountLinksApi.previewReset);

/** Answering a link signs this browser in: the header shows who at once, and tabs that lost their session carry on. */
const signedIn = {
  apply: ({ user }: AuthResponse) => {
    setQueryData(SESSION_KEY, user);
    announceSignIn();
  },
};
export const acceptInvitation = write(accountLinksApi.acceptInvitation, signedIn);
/** Joining with a passkey instead: a challenge for the browser's prompt first (it changes nothing the page shows). */
export const invitationPasskeyOptions = write(accountLinksApi.invitationPasskeyOptions);
export const acceptInvitationWithPasskey = write(accountLinksApi.acceptInvitationWithPasskey, signedIn);
export const setPasswordByLink = write(accountLinksApi.useReset, signedIn);
