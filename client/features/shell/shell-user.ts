import type { SessionUser } from '@contracts/auth.contract';

/** What each role may do, in words (the overview shows the user theirs). */
export const ROLE_DESCRIPTIONS: Record<SessionUser['role'], string> = {
  admin: 'Everything, including door access in Kisi.',
  staff: 'The gym, webhooks, chat, uploads and posts.',
  runner: 'The runner board of the food court.',
};
