import type { AuditEntry, AuditFilter, AuditListQuery } from '../../contracts/audit.contract';
import type { Page } from '../../contracts/common.contract';
import type { Db } from '../../db/database';
import type { AuditEntriesTable } from '../../db/schema';
import { containsText } from '../../db/engine';
import { paginate } from '../../lib/paginate';

type AuditRow = { [K in keyof AuditEntriesTable]: K extends 'id' ? number : AuditEntriesTable[K] };

const toEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: row.at,
  actor: row.actor_id === null ? null : { id: row.actor_id, email: row.actor_email ?? '', name: row.actor_name ?? '', role: row.actor_role ?? '' },
  kind: row.kind,
  action: row.action,
  subjectId: row.subject_id,
  subject: row.subject,
  changes: JSON.parse(row.changes) as AuditEntry['changes'],
});

/** Reads the audit trail (written by `auditIn`, bff/db/audit-trail.ts, in each change's own transaction). Nothing here changes it. */
export function auditRepository(db: Db) {
  const matching = ({ person, kind, since, before }: AuditFilter) => {
    let query = db.selectFrom('audit_entries');
    if (person) query = query.where(containsText(['actor_name', 'actor_email'], person));
    if (kind) query = query.where('kind', '=', kind);
    if (since) query = query.where('at', '>=', since);
    if (before) query = query.where('at', '<', before);
    return query;
  };

  return {
    /** Newest first: ids are given in commit order, so the id orders as the trail happened. */
    list: ({ page, pageSize, ...filter }: AuditListQuery): Promise<Page<AuditEntry>> =>
      paginate(
        { page, pageSize },
        async () => Number((await matching(filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
        async (limit, offset) => (await matching(filter).selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute()).map(toEntry),
      ),

    /** The `limit` matching entries older than `last` (the newest when none), newest first: an export reads the trail in these. */
    async olderThan(filter: AuditFilter, last: AuditEntry | undefined, limit: number): Promise<AuditEntry[]> {
      const query = matching(filter).selectAll().orderBy('id', 'desc').limit(limit);
      return (await (last ? query.where('id', '<', last.id) : query).execute()).map(toEntry);
    },
  };
}
export type AuditRepository = ReturnType<typeof auditRepository>;
