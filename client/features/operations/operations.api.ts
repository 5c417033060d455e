import { operationsApi } from '@contracts/operations.contract';
import { write } from '@/lib/endpoint-write';

/** The Operations page's writes (its reads are declared in pages/operations.reads.ts). */

/** A backup now: the server answers when it is done; the list, the last backup and its state follow. */
export const backUpNow = write(operationsApi.backUpNow, { stale: [operationsApi.backups], staleWhenRefused: [operationsApi.backups] });
