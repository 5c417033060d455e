import { useRouteLoaderData } from 'react-router';
import type { SessionUser } from '@contracts/auth.contract';

/** The signed-in user, from the /shell route's loader (its middleware put it in the context). */
export function useShellUser(): SessionUser {
  const data = useRouteLoaderData('shell') as { user: SessionUser } | undefined;
  if (!data) throw new Error('useShellUser() is only for routes under /shell');
  return data.user;
}

export const ROLE_DESCRIPTIONS: Record<SessionUser['role'], string> = {
  admin: 'Everything, including door access in Kisi.',
  staff: 'The gym, webhooks, chat, uploads and posts.',
  runner: 'The runner board of the food court.',
};
