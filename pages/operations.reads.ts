import { read } from '../bff/contracts/endpoint.contract';
import { operationsApi } from '../bff/contracts/operations.contract';
import { pages } from './pages';
import type { AreaReads } from './reads';
import { shellLayoutReads } from './shell.reads';

/**
 * The admins' Operations page: its sections each read their own endpoint. Retention (decision 0097):
 * how long each kind of record is kept and what the last daily purge removed.
 */
export const retentionRead = read(operationsApi.retention);
/** Backups (decision 0096): the last one, those kept in BACKUP_DIR, the schedule. */
export const backupsRead = read(operationsApi.backups);

export const operationsPageReads = () => ({ backups: backupsRead, retention: retentionRead });

/** The page sits in the staff shell: the shell's reads come first. */
export const operationsReads = { operations: () => ({ ...shellLayoutReads(pages.operations), ...operationsPageReads() }) } satisfies AreaReads;
