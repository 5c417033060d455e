import type { authApi } from '@contracts/auth.contract';
import type { conversationsApi } from '@contracts/conversations.contract';
import { addressOf } from '@contracts/endpoint.contract';
import { firstScreenRoutes } from '@contracts/first-screen.contract';
import type { statusApi } from '@contracts/status.contract';

/**
 * The endpoints every first screen calls, as addresses typed by their contracts (the types only: a
 * contract's schemas would bring valibot to a first visit, docs/decisions/0088).
 */
export const firstScreenApi = {
  session: addressOf<typeof authApi.session>(firstScreenRoutes.session),
  logout: addressOf<typeof authApi.logout>(firstScreenRoutes.logout),
  status: addressOf<typeof statusApi.status>(firstScreenRoutes.status),
  guestHelpWaiting: addressOf<typeof conversationsApi.waiting>(firstScreenRoutes.guestHelpWaiting),
};
