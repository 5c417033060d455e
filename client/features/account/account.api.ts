import { accountApi } from '@contracts/account.contract';
import { teamApi } from '@contracts/team.contract';
import { write } from '@/lib/endpoint-write';
import { setQueryData } from '@/lib/reads';
import { SESSION_KEY } from '@/lib/session';

/** The own account's writes (docs/decisions/0001-one-way-to-write.md); its read is declared in pages/team.reads.ts. */

/** A new name is the session's too: the header shows it at once. An admin's team list names them as well. */
export const changeName = write(accountApi.changeName, { apply: (user) => setQueryData(SESSION_KEY, user), stale: [accountApi.get, teamApi.list] });
/** The other sessions end with the old password: the list shows this browser alone. */
export const changePassword = write(accountApi.changePassword, { stale: [accountApi.get] });
export const endSession = write(accountApi.endSession, { stale: [accountApi.get], staleWhenRefused: [accountApi.get] });
export const endOtherSessions = write(accountApi.endOtherSessions, { stale: [accountApi.get] });
