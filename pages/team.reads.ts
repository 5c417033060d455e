import { read } from '../bff/contracts/endpoint.contract';
import { accountApi } from '../bff/contracts/account.contract';
import { teamApi } from '../bff/contracts/team.contract';
import { pages } from './pages';
import type { AreaReads } from './reads';
import { shellLayoutReads } from './shell.reads';

/**
 * The team's pages in the staff shell: the admins' team page and each person's own account. The
 * invitation and reset pages (`/join#…`, `/reset#…`) read nothing first: their secret is in the
 * fragment, which only the page itself sees, and it asks with the secret in a body.
 */

/** Every account and the open invitations (admins). */
export const teamRead = read(teamApi.list);
/** The signed-in person's own account: name, role, sessions, passkeys. */
export const ownAccountRead = read(accountApi.get);

export const teamPageReads = () => ({ team: teamRead });
export const accountPageReads = () => ({ account: ownAccountRead });

/** Both pages sit in the staff shell: the shell's reads come first. */
export const teamReads = {
  team: () => ({ ...shellLayoutReads(pages.team), ...teamPageReads() }),
  account: () => ({ ...shellLayoutReads(pages.account), ...accountPageReads() }),
} satisfies AreaReads;
