import * as v from 'valibot';
import { endpoint } from './endpoint.contract';

/**
 * What admins see of the server's upkeep. Retention (decision 0097): each kind of record is kept for
 * its configured days (`RETAIN_*_DAYS`, 0 = for ever) and purged once a day in small batches; the
 * last run's outcome is kept so this page can say what went and when.
 *
 * Backups (decision 0096, docs/operations.md "Backups and restore"): a backup is a folder in BACKUP_DIR
 * holding the databases, the files and a manifest; the server takes them on a schedule, `npm run backup`
 * and the Operations page take one at once, and `npm run restore` puts one back.
 */

/** The kinds of record retention purges, in the order the page lists them. */
export const RETENTION_KINDS = ['doorEvents', 'chat', 'conversations', 'files', 'audit', 'orders', 'liveEvents'] as const;
export const RetentionKindSchema = v.picklist(RETENTION_KINDS);
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** Each kind in words, what counts as its age, and the setting that says how long it is kept. */
export const RETENTION_KIND_LABELS: Record<RetentionKind, { label: string; age: string; setting: string }> = {
  doorEvents: { label: 'Door events', age: 'from when the door event happened', setting: 'RETAIN_DOOR_EVENTS_DAYS' },
  chat: { label: 'Staff chat messages', age: 'from when the message was written', setting: 'RETAIN_CHAT_DAYS' },
  conversations: { label: 'Guest conversations, with their messages', age: 'from the conversation’s last message', setting: 'RETAIN_CONVERSATIONS_DAYS' },
  files: { label: 'Stored files', age: 'from when the file was uploaded', setting: 'RETAIN_FILES_DAYS' },
  audit: { label: 'Audit trail', age: 'from when the change was made', setting: 'RETAIN_AUDIT_DAYS' },
  orders: { label: 'Served and cancelled orders, with their lines and tickets', age: 'from when the order was placed', setting: 'RETAIN_ORDERS_DAYS' },
  liveEvents: { label: 'Live events log', age: 'from when the event was sent', setting: 'RETAIN_LIVE_EVENTS_DAYS' },
};

export const RetentionKindReportSchema = v.object({
  kind: RetentionKindSchema,
  /** How long this kind is kept now, in days; 0: kept for ever. */
  days: v.number(),
  /** The last run's cut-off for this kind (records older than it went); null: not purged then (kept for ever, or no run yet). */
  cutoff: v.nullable(v.string()),
  /** How many records of this kind the last run purged. */
  purged: v.number(),
});
export type RetentionKindReport = v.InferOutput<typeof RetentionKindReportSchema>;

export const RetentionRunSchema = v.object({
  startedAt: v.string(),
  finishedAt: v.string(),
  /** `failed`: the run stopped at an error (what it purged before stays purged; the next run carries on). */
  status: v.picklist(['ok', 'failed']),
  error: v.nullable(v.string()),
});
export type RetentionRun = v.InferOutput<typeof RetentionRunSchema>;

export const RetentionReportSchema = v.object({
  /** Rows deleted per transaction, with a short pause between, so no write waits long behind a purge. */
  batchSize: v.number(),
  /** The last run (any instance's); null: none yet. */
  lastRun: v.nullable(RetentionRunSchema),
  /** When the next run is due (one instance takes it); null: none planned yet. */
  nextRunAt: v.nullable(v.string()),
  kinds: v.array(RetentionKindReportSchema),
});
export type RetentionReport = v.InferOutput<typeof RetentionReportSchema>;

/** Who took a backup: the server's schedule, `npm run backup`, or an admin on the Operations page (their email). */
export const BACKUP_BY_SCHEDULE = 'schedule';
export const BACKUP_BY_COMMAND_LINE = 'command line';

/** One backup taken, or tried: when, by whom, and how it ended. */
export const BackupRunSchema = v.object({
  /** Its folder's name in BACKUP_DIR (`frontdesk-2026-12-01T03-00-00-000Z`); null when it failed before it had one. */
  name: v.nullable(v.string()),
  startedAt: v.string(),
  finishedAt: v.string(),
  ok: v.boolean(),
  /** Bytes in the backup (databases and files); null when it failed. */
  sizeBytes: v.nullable(v.number()),
  /** Files in the backup (the databases among them); null when it failed. */
  files: v.nullable(v.number()),
  /** Why it failed, in words; null when it succeeded. */
  message: v.nullable(v.string()),
  by: v.string(),
});
export type BackupRun = v.InferOutput<typeof BackupRunSchema>;

/** A backup in BACKUP_DIR, as its manifest describes it. */
export const KeptBackupSchema = v.object({
  name: v.string(),
  /** When its database copy was taken (null: the manifest could not be read). */
  createdAt: v.nullable(v.string()),
  sizeBytes: v.number(),
  /** Whether its manifest is there and readable (a folder without one is not a backup restore will take). */
  ok: v.boolean(),
  engine: v.nullable(v.picklist(['sqlite', 'postgres'])),
  /** The last database migration it holds (`027-team-accounts`). */
  migration: v.nullable(v.string()),
  appVersion: v.nullable(v.string()),
});
export type KeptBackup = v.InferOutput<typeof KeptBackupSchema>;

export const BackupsOverviewSchema = v.object({
  /** The last backup taken or tried, by any instance or the command line. */
  last: v.nullable(BackupRunSchema),
  /** The last one that succeeded (the same as `last` unless that one failed). */
  lastSuccess: v.nullable(BackupRunSchema),
  /** A backup being taken now (by any instance, or the command line), since when and by whom. */
  running: v.nullable(v.object({ startedAt: v.string(), by: v.string() })),
  /** The backups in BACKUP_DIR, newest first. */
  kept: v.array(KeptBackupSchema),
  schedule: v.object({
    /** BACKUP_EVERY_HOURS; 0: the server takes none. */
    everyHours: v.number(),
    /** BACKUP_KEEP; 0: all are kept. */
    keep: v.number(),
    /** When the next scheduled backup is due (null: no schedule). */
    nextAt: v.nullable(v.string()),
  }),
  /** BACKUP_DIR as this instance resolves it. */
  folder: v.string(),
  engine: v.picklist(['sqlite', 'postgres']),
});
export type BackupsOverview = v.InferOutput<typeof BackupsOverviewSchema>;

export const operationsApi = {
  retention: endpoint({
    method: 'GET',
    path: '/api/operations/retention',
    summary: 'How long each kind of record is kept, and what the last daily purge removed (per kind: its cut-off and count)',
    access: ['admin'],
    response: RetentionReportSchema,
  }),
  backups: endpoint({
    method: 'GET',
    path: '/api/operations/backups',
    summary: 'The last backup (when, size, ok or failed and why), the backups kept in BACKUP_DIR, the schedule and the folder',
    access: ['admin'],
    response: BackupsOverviewSchema,
  }),
  backUpNow: endpoint({
    method: 'POST',
    path: '/api/operations/backups',
    summary: 'Takes a backup now and answers when it is done (409 while one is being taken; 500 with the reason when it fails)',
    access: ['admin'],
    response: BackupRunSchema,
    status: 201,
    errors: [409, 500],
  }),
};
