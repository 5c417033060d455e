import type { KisiEvent } from '../../contracts/webhook.contract';
import type { CsvColumn } from '../../lib/csv';

/**
 * The columns of the door-events export, in the words of the page. Times stay UTC ISO-8601 (said in
 * the heading): the file may be opened anywhere, and a spreadsheet sorts that text as time.
 */
export const EVENT_CSV_COLUMNS: readonly CsvColumn<KisiEvent>[] = [
  { heading: 'Time (UTC)', value: (e) => e.createdAt },
  { heading: 'Event', value: (e) => e.type },
  { heading: 'Person', value: (e) => e.actorName },
  { heading: 'Email', value: (e) => e.actorEmail },
  // A remote unlock pressed in Frontdesk: Person is the integration's Kisi user, these the account that pressed it.
  { heading: 'Requested by', value: (e) => e.requestedBy?.name },
  { heading: 'Requested by email', value: (e) => e.requestedBy?.email },
  { heading: 'Door', value: (e) => e.objectName },
  { heading: 'Door id', value: (e) => e.objectId },
  { heading: 'Result', value: (e) => (e.success ? 'granted' : 'denied') },
  { heading: 'Error code', value: (e) => e.errorCode },
  { heading: 'Error message', value: (e) => e.errorMessage },
  { heading: 'Kisi event uuid', value: (e) => e.uuid },
];

/** `door-events-2026-03-02.csv`: the day it was taken (UTC), so two exports do not share a name. */
export const eventExportFilename = (now: Date) => `door-events-${now.toISOString().slice(0, 10)}.csv`;
