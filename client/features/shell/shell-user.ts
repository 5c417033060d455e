import type { SessionUser } from '@contracts/auth.contract';

/** What each role may do, in words (the overview shows the user theirs). */
export const ROLE_DESCRIPTIONS: Record<SessionUser['role'], string> = {
  admin: 'Everything staff do, and the audit trail and door access in Kisi.',
  staff: 'The gym’s members and owners, the door events, the food court (stalls, kitchens, runner board, figures), guest help, chat and files.',
  runner: 'The food court’s runner board and kitchen screens, and the chat.',
};
