import type { RequestHandler } from 'msw';
import { accountApi, type OwnAccount, type OwnSession } from '@contracts/account.contract';
import { authApi, type SessionUser } from '@contracts/auth.contract';
import { accountLinksApi, teamApi, type Invitation, type TeamAccount } from '@contracts/team.contract';
import { fieldProblem, handle, passOn, problem } from './test-server';

/**
 * Test support: the team's, the links' and the own account's API as `bff/features/auth` answers them
 * (the last active admin kept, 409 for an email with an account, 404 for a used link, the wrong
 * current password on its field), as msw handlers for route tests to drive through the real screens.
 * Who is signed in follows the links: answering one signs that account in (`session`).
 */
const AT = '2025-03-01T09:30:00.000Z';
const IN_THREE_DAYS = '2025-03-04T09:30:00.000Z';

export function teamAccount(id: number, overrides: Partial<TeamAccount> = {}): TeamAccount {
  return { id, email: `person${id}@frontdesk.test`, name: `Person ${id}`, role: 'staff', status: 'active', createdAt: AT, lastSignInAt: null, openSessions: 0, passkeys: 0, ...overrides };
}

export function invitation(id: number, overrides: Partial<Invitation> = {}): Invitation {
  return { id, email: `invited${id}@frontdesk.test`, role: 'runner', createdAt: AT, expiresAt: IN_THREE_DAYS, invitedBy: 'Administrator', ...overrides };
}

export type FakeTeam = {
  accounts: TeamAccount[];
  invitations: Invitation[];
  /** Open links by their secret: an invitation's id, or a reset's account id. */
  links: Map<string, { kind: 'invitation'; id: number } | { kind: 'reset'; accountId: number }>;
  /** Who answering a link signed in (null: nobody yet); GET /api/auth/session says so. */
  session: SessionUser | null;
  handlers: RequestHandler[];
};

export function fakeTeam(init: { accounts?: TeamAccount[]; invitations?: Invitation[]; links?: FakeTeam['links'] } = {}): FakeTeam {
  const team: FakeTeam = { accounts: init.accounts ?? [], invitations: init.invitations ?? [], links: init.links ?? new Map(), session: null, handlers: [] };
  let made = 0;
  const find = (id: number) => team.accounts.find((a) => a.id === id);
  const noAccount = (id: number) => problem(404, 'Not Found', `No account with id ${id}.`);
  const isLastAdmin = (a: TeamAccount) => a.role === 'admin' && a.status === 'active' && team.accounts.filter((o) => o.role === 'admin' && o.status === 'active').length === 1;
  const lastAdmin = () => problem(409, 'Conflict', 'This is the last active admin: make someone else an admin first.');
  const linkOf = (token: string) => team.links.get(token);
  const goneLink = () => problem(404, 'Not Found', 'This link was used, withdrawn or ran out.');
  const signIn = (a: TeamAccount): SessionUser => (team.session = { id: a.id, email: a.email, name: a.name, role: a.role });
  const openInvitation = (token: string) => {
    const link = linkOf(token);
    return link?.kind === 'invitation' ? team.invitations.find((i) => i.id === link.id) : undefined;
  };
  /** Answers an open invitation: the link used, the account made (with a passkey or not), and signed in. */
  const join = (token: string, name: string, passkeys = 0) => {
    const open = openInvitation(token);
    if (!open) return goneLink();
    team.links.delete(token);
    team.invitations = team.invitations.filter((i) => i !== open);
    const joined = teamAccount(Math.max(0, ...team.accounts.map((a) => a.id)) + 1, { email: open.email, name, role: open.role, lastSignInAt: AT, openSessions: 1, passkeys });
    team.accounts.push(joined);
    return { user: signIn(joined) };
  };

  team.handlers = [
    handle(authApi.session, () => (team.session ? { user: team.session } : passOn)),
    handle(teamApi.list, () => ({ accounts: team.accounts, invitations: team.invitations })),
    handle(teamApi.invite, ({ body }) => {
      if (team.accounts.some((a) => a.email === body.email)) return problem(409, 'Conflict', `${body.email} has an account already.`);
      const created = invitation(100 + team.invitations.length, { email: body.email, role: body.role });
      team.invitations.push(created);
      const token = `invite-secret-${++made}`;
      team.links.set(token, { kind: 'invitation', id: created.id });
      return { invitation: created, link: { token, expiresAt: created.expiresAt } };
    }),
    handle(teamApi.withdrawInvitation, ({ params }) => {
      if (!team.invitations.some((i) => i.id === params.id)) return problem(404, 'Not Found', `No open invitation with id ${params.id}.`);
      team.invitations = team.invitations.filter((i) => i.id !== params.id);
    }),
    handle(teamApi.changeRole, ({ params, body }) => {
      const a = find(params.id);
      if (!a) return noAccount(params.id);
      if (body.role !== 'admin' && isLastAdmin(a)) return lastAdmin();
      Object.assign(a, { role: body.role });
      return a;
    }),
    handle(teamApi.changeStatus, ({ params, body }) => {
      const a = find(params.id);
      if (!a) return noAccount(params.id);
      if (body.status === 'deactivated' && isLastAdmin(a)) return lastAdmin();
      Object.assign(a, { status: body.status, openSessions: body.status === 'deactivated' ? 0 : a.openSessions });
      return a;
    }),
    handle(teamApi.resetLink, ({ params }) => {
      if (!find(params.id)) return noAccount(params.id);
      const token = `reset-secret-${++made}`;
      team.links.set(token, { kind: 'reset', accountId: params.id });
      return { token, expiresAt: '2025-03-02T09:30:00.000Z' };
    }),
    handle(teamApi.remove, ({ params }) => {
      const a = find(params.id);
      if (!a) return noAccount(params.id);
      if (isLastAdmin(a)) return lastAdmin();
      team.accounts = team.accounts.filter((o) => o.id !== params.id);
    }),
    handle(accountLinksApi.previewInvitation, ({ body }) => {
      const link = linkOf(body.token);
      const open = link?.kind === 'invitation' ? team.invitations.find((i) => i.id === link.id) : undefined;
      return open ? { email: open.email, role: open.role, expiresAt: open.expiresAt } : goneLink();
    }),
    handle(accountLinksApi.acceptInvitation, ({ body }) => join(body.token, body.name)),
    handle(accountLinksApi.invitationPasskeyOptions, ({ body }) => {
      const open = openInvitation(body.token);
      return open ? { challenge: 'am9pbi1jaGFsbGVuZ2U', rp: { name: 'Frontdesk', id: 'localhost' }, user: { id: 'bmV3LXVzZXI', name: open.email, displayName: body.name } } : goneLink();
    }),
    handle(accountLinksApi.acceptInvitationWithPasskey, ({ body }) => join(body.token, body.name, 1)),
    handle(accountLinksApi.previewReset, ({ body }) => {
      const link = linkOf(body.token);
      const a = link?.kind === 'reset' ? find(link.accountId) : undefined;
      return a ? { email: a.email, name: a.name, expiresAt: '2025-03-02T09:30:00.000Z' } : goneLink();
    }),
    handle(accountLinksApi.useReset, ({ body }) => {
      const link = linkOf(body.token);
      const a = link?.kind === 'reset' ? find(link.accountId) : undefined;
      if (!a) return goneLink();
      team.links.delete(body.token);
      a.openSessions = 1;
      return { user: signIn(a) };
    }),
  ];
  return team;
}

export function ownSession(id: number, overrides: Partial<OwnSession> = {}): OwnSession {
  return { id, browser: 'Firefox on Linux', address: '192.0.2.10', signedInAt: AT, lastSeenAt: AT, current: false, ...overrides };
}

export type FakeAccount = { account: OwnAccount; password: string; handlers: RequestHandler[] };

/** The signed-in person's own account (the fake BFF's ADMIN_USER unless told): its password is `password`. */
export function fakeAccount(init: Partial<OwnAccount> = {}, password = 'the-old-password'): FakeAccount {
  const me: FakeAccount = {
    account: {
      id: 1,
      email: 'admin@frontdesk.test',
      name: 'Administrator',
      role: 'admin',
      createdAt: AT,
      hasPassword: true,
      sessions: [ownSession(11, { browser: 'Chrome on Android', current: true }), ownSession(12)],
      passkeys: [],
      ...init,
    },
    password,
    handlers: [],
  };
  const sessionUser = (): SessionUser => ({ id: me.account.id, email: me.account.email, name: me.account.name, role: me.account.role });
  me.handlers = [
    handle(authApi.session, () => ({ user: sessionUser() })),
    handle(accountApi.get, () => me.account),
    handle(accountApi.changeName, ({ body }) => {
      me.account.name = body.name;
      return sessionUser();
    }),
    handle(accountApi.changePassword, ({ body }) => {
      if (me.account.hasPassword && body.currentPassword !== me.password) return fieldProblem([{ path: 'body.currentPassword', message: 'That is not your current password' }]);
      me.password = body.newPassword;
      const ended = me.account.sessions.filter((s) => !s.current).length;
      me.account.sessions = me.account.sessions.filter((s) => s.current);
      return { ended };
    }),
    handle(accountApi.endSession, ({ params }) => {
      if (!me.account.sessions.some((s) => s.id === params.id && !s.current)) return problem(404, 'Not Found', `No session ${params.id} of yours is open.`);
      me.account.sessions = me.account.sessions.filter((s) => s.id !== params.id);
    }),
    handle(accountApi.endOtherSessions, () => {
      const ended = me.account.sessions.filter((s) => !s.current).length;
      me.account.sessions = me.account.sessions.filter((s) => s.current);
      return { ended };
    }),
  ];
  return me;
}
