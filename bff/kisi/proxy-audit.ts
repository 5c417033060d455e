import { kisiApi } from '../contracts/kisi.contract';
import type { Endpoint } from '../contracts/endpoint.contract';
import { changesOf, type AuditRecord } from '../db/audit-trail';
import type { KisiUserSummary } from './kisi-client';

/**
 * A Kisi write as the proxy admitted it: its endpoint, the path's id, the body sent, the user before
 * a switch, and the name of the link, group or lock the write removes or opens, read just before.
 */
export interface KisiWrite {
  endpoint: Endpoint;
  id: string | null;
  body: Record<string, unknown> | undefined;
  before?: KisiUserSummary | null;
  label?: string | null;
}
const LINK_FIELDS = ['name', 'email', 'valid_from', 'valid_until', 'quick_response_code_type'] as const;
/** A person named in a request body or a Kisi answer, where the name or the email may be missing. */
const labelFromBody = (name: unknown, email: unknown) => `${typeof name === 'string' ? name : 'Someone'}${typeof email === 'string' && email ? ` <${email}>` : ''}`;

/**
 * What the audit trail says of a Kisi write the proxy forwarded and Kisi accepted: the change lives at
 * Kisi, so its entry is written once Kisi answered 2xx (it cannot share Kisi's transaction). `before`
 * is the Kisi user as read just before a switch, so the trail has both sides.
 */
export function kisiWriteRecord({ endpoint, id, body, before, label }: KisiWrite): AuditRecord | undefined {
  switch (endpoint) {
    case kisiApi.unlockLock:
      return { kind: 'unlock', action: 'unlocked remotely', subjectId: id, subject: label ?? `Kisi lock ${id}` };
    case kisiApi.createGroupLink: {
      const link = (body?.group_link ?? {}) as Record<(typeof LINK_FIELDS)[number], unknown>;
      return { kind: 'access_link', action: 'created', subject: labelFromBody(link.name, link.email), changes: changesOf(null, link, LINK_FIELDS) };
    }
    case kisiApi.deleteGroupLink:
      return { kind: 'access_link', action: 'revoked', subjectId: id, subject: label ?? `Kisi access link ${id}` };
    case kisiApi.updateUser: {
      const patch = (body?.user ?? {}) as { access_enabled?: boolean };
      return {
        kind: 'kisi',
        action: patch.access_enabled === false ? 'user switched off' : patch.access_enabled ? 'user switched on' : 'user updated',
        subjectId: id,
        subject: before ? labelFromBody(before.name, before.email) : `Kisi user ${id}`,
        changes: changesOf({ accessEnabled: before?.accessEnabled ?? null }, { accessEnabled: patch.access_enabled ?? null }, ['accessEnabled']),
      };
    }
    case kisiApi.createGroup: {
      const group = (body?.group ?? {}) as { name?: unknown };
      return { kind: 'kisi', action: 'group created', subject: typeof group.name === 'string' ? group.name : 'Kisi group', changes: changesOf(null, group, ['name']) };
    }
    case kisiApi.deleteGroup:
      return { kind: 'kisi', action: 'group deleted', subjectId: id, subject: label ?? `Kisi group ${id}` };
    default:
      return undefined;
  }
}
