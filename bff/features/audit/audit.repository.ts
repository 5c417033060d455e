import type { AuditEntry, AuditFilter, AuditListQuery } from '../../contracts/audit.contract';
import type { Page } from '../../contracts/common.contract';
import type { Database, Db } from '../../db/database';
import type { AuditEntriesTable } from '../../db/schema';
import { keysetPaginate, type KeysetOrder } from '../../lib/paginate';

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

/** Newest first: ids are given in commit order, so the id orders as the trail happened. */
const NEWEST_FIRST: KeysetOrder = { direction: 'desc', columns: [['id', 'integer']] };

/** Reads the audit trail (written by `auditIn`, bff/db/audit-trail.ts, in each change's own transaction). Nothing here changes it. */
export function auditRepository(db: Db, containsMatch: Database['containsMatch']) {
  const matching = ({ person, kind, since, before }: AuditFilter) => {
    let query = db.selectFrom('audit_entries');
    // Who: through the trail's contains index on the actor's name and email (migration 032).
    if (person) query = query.where(containsMatch('audit_entries', ['actor_name', 'actor_email'], person));
    if (kind) query = query.where('kind', '=', kind);
    if (since) query = query.where('at', '>=', since);
    if (before) query = query.where('at', '<', before);
    return query;
  };

  return {
    /**
     * Newest first, a page from its cursor (the kind's along `audit_entries_kind_idx`), the count
     * stopping at 1,000 past it.
     */
    list: ({ page, pageSize, next, previous, ...filter }: AuditListQuery): Promise<Page<AuditEntry>> =>
      keysetPaginate(db, { page, pageSize, next, previous }, { matching: () => matching(filter), order: NEWEST_FIRST, select: (q) => q.selectAll(), toItem: toEntry }),

    /** The `limit` matching entries older than `last` (the newest when none), newest first: an export reads the trail in these. */
    async olderThan(filter: AuditFilter, last: AuditEntry | undefined, limit: number): Promise<AuditEntry[]> {
      const query = matching(filter).selectAll().orderBy('id', 'desc').limit(limit);
      return (await (last ? query.where('id', '<', last.id) : query).execute()).map(toEntry);
    },
  };
}
export type AuditRepository = ReturnType<typeof auditRepository>;
