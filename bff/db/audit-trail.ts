import type { SessionUser } from '../contracts/auth.contract';
import type { AuditChange, AuditKind, AuditValue } from '../contracts/audit.contract';
import type { Db } from './database';

/** One change for the audit trail: what kind of thing, what was done, to which one, and each changed field. */
export interface AuditRecord {
  kind: AuditKind;
  action: string;
  subjectId?: string | number | null;
  /** The thing in words as it is (or was, when deleted): "Ada Lovelace <ada@members.example>". */
  subject: string;
  changes?: AuditChange[];
}

/** A person as the trail names them: "Ada Lovelace <ada@members.example>". */
export const personLabel = (person: { name: string; email: string }) => `${person.name} <${person.email}>`;

/** Who made a change: the signed-in account, or null for the command line and the server itself. */
export type AuditActor = Pick<SessionUser, 'id' | 'email' | 'name' | 'role'> | null;

/** Records a change in the audit trail; called with the transaction of the change itself, so the two commit or fail together. */
export type Audit = (actor: AuditActor, record: AuditRecord) => Promise<void>;
/** The trail as `auditIn` writes it: one change, or many at once (a CSV import's members, a few hundred a statement). */
export type AuditWriter = Audit & ((actor: AuditActor, records: readonly AuditRecord[]) => Promise<void>);

/** The audit trail written through `db` (a transaction's, for a change in it). */
export const auditIn = (db: Db, now: () => string = () => new Date().toISOString()): AuditWriter =>
  async (actor: AuditActor, records: AuditRecord | readonly AuditRecord[]) => {
    const all: readonly AuditRecord[] = 'kind' in records ? [records] : records;
    const at = now();
    for (let i = 0; i < all.length; i += 200) {
      await db
        .insertInto('audit_entries')
        .values(
          all.slice(i, i + 200).map(({ kind, action, subjectId = null, subject, changes = [] }) => ({
            at,
            actor_id: actor?.id ?? null,
            actor_email: actor?.email ?? null,
            actor_name: actor?.name ?? null,
            actor_role: actor?.role ?? null,
            kind,
            action,
            subject_id: subjectId === null ? null : String(subjectId),
            subject,
            changes: JSON.stringify(changes),
          })),
        )
        .execute();
    }
  };

const auditValue = (value: unknown): AuditValue =>
  value === undefined || value === null ? null : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value);

/** The listed fields whose value differs from `before` to `after`, each before → after (a created thing has no before, a deleted one no after). */
export function changesOf<T extends object>(before: T | null, after: T | null, fields: readonly (keyof T & string)[]): AuditChange[] {
  return fields.flatMap((field) => {
    const was = auditValue(before?.[field]);
    const is = auditValue(after?.[field]);
    return was === is ? [] : [{ field, before: was, after: is }];
  });
}
