import { chatApi } from '../contracts/chat.contract';
import { conversationsApi } from '../contracts/conversations.contract';
import { ROLES, type Access, type Role } from '../contracts/endpoint.contract';
import type { LiveEvent, LiveEventType } from '../contracts/events.contract';
import { gymApi } from '../contracts/gym.contract';
import { ptApi } from '../contracts/pt.contract';
import { webhookApi } from '../contracts/webhook.contract';

const rolesOf = (access: Access): readonly Role[] => (typeof access === 'string' ? ROLES : access);

/**
 * Who hears each kind of event (admins hear everything): whoever may read what it announces, by
 * that list's own access: the door events, the runner board's orders, a channel's messages, the guest conversations, a gym member.
 */
export const LIVE_EVENT_AUDIENCE: Record<LiveEventType, readonly Role[]> = {
  webhook: rolesOf(webhookApi.listEvents.access),
  order: rolesOf(ptApi.listOrders.access),
  chat: rolesOf(chatApi.listMessages.access),
  conversation: rolesOf(conversationsApi.list.access),
  member: rolesOf(gymApi.getMember.access),
  // What diners can order: the menu is public, and so is its stream.
  menu: rolesOf(ptApi.menu.access),
};

/**
 * An event may narrow its kind's audience further: `audience` in its data lists the only roles that
 * hear it (a staff-only channel's messages never reach a runner).
 */
export function mayHearLiveEvent(event: Pick<LiveEvent, 'type' | 'data'>, role: Role): boolean {
  if (role === 'admin') return true;
  if (!LIVE_EVENT_AUDIENCE[event.type].includes(role)) return false;
  const narrowed = (event.data as { audience?: unknown } | null)?.audience;
  return !Array.isArray(narrowed) || narrowed.includes(role);
}

