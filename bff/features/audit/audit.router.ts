import { auditApi, type AuditEntry } from '../../contracts/audit.contract';
import { sendCsv, inBatches, type CsvColumn } from '../../lib/csv';
import { route } from '../../lib/endpoint-router';
import type { AuditRepository } from './audit.repository';

const EXPORT_BATCH = 500;

/** The export's columns: one row per entry, its changes as `field: before → after` lines in one cell. */
const AUDIT_COLUMNS: readonly CsvColumn<AuditEntry>[] = [
  { heading: 'When (UTC)', value: (e) => e.at },
  { heading: 'Who', value: (e) => e.actor?.name ?? 'Command line' },
  { heading: 'Email', value: (e) => e.actor?.email },
  { heading: 'Role', value: (e) => e.actor?.role },
  { heading: 'Kind', value: (e) => e.kind },
  { heading: 'Action', value: (e) => e.action },
  { heading: 'Subject', value: (e) => e.subject },
  { heading: 'Subject id', value: (e) => e.subjectId },
  { heading: 'Changes', value: (e) => e.changes.map((c) => `${c.field}: ${c.before ?? '—'} → ${c.after ?? '—'}`).join('\n') },
];

/** `/api/audit` (the trail, for admins) and its CSV export. No route writes to it. */
export const auditRoutes = (trail: AuditRepository) => [
  route(auditApi.list, ({ query }) => trail.list(query)),
  route(auditApi.export, ({ query }, { res }) =>
    sendCsv(res, 'audit-trail.csv', AUDIT_COLUMNS, inBatches((last) => trail.olderThan(query, last, EXPORT_BATCH), EXPORT_BATCH)),
  ),
];
