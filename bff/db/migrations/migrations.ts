import type { Kysely } from 'kysely';
import type { EngineDdl } from '../engine';
import * as m001 from './001-accounts-sessions.migration';
import * as m002 from './002-kisi-emulator.migration';
import * as m003 from './003-kisi-events.migration';
import * as m004 from './004-live-events.migration';
import * as m005 from './005-gym.migration';
import * as m006 from './006-shared-limits.migration';
import * as m007 from './007-food-court.migration';
import * as m008 from './008-messaging.migration';
import * as m009 from './009-uploads.migration';
import * as m010 from './010-catalogue.migration';
import * as m011 from './011-sample-cache.migration';
import * as m012 from './012-kisi-emulator-moved-out.migration';
import * as m013 from './013-audit-trail.migration';
import * as m014 from './014-kisi-events-filter-indexes.migration';
import * as m015 from './015-open-orders-index.migration';
import * as m016 from './016-order-tickets.migration';
import * as m017 from './017-wait-estimates.migration';
import * as m018 from './018-order-list-indexes.migration';
import * as m019 from './019-part-search.migration';
import * as m020 from './020-waiting-tickets-index.migration';
import * as m021 from './021-stall-queues.migration';
import * as m022 from './022-list-indexes.migration';
import * as m023 from './023-search-ranks.migration';
import * as m024 from './024-stall-queues-counted.migration';
import * as m025 from './025-door-access-outbox.migration';
import * as m026 from './026-door-access-claims.migration';
import * as m027 from './027-team-accounts.migration';
import * as m028 from './028-retention-indexes.migration';
import * as m029 from './029-door-access-outlives-the-member.migration';
import * as m030 from './030-food-court-figures.migration';
import * as m031 from './031-door-event-choices.migration';
import * as m032 from './032-staff-messages-trail-files.migration';
import * as m033 from './033-member-search.migration';
import * as m034 from './034-member-last-visit.migration';
import * as m035 from './035-remote-unlock-requests.migration';
import * as m036 from './036-member-visits.migration';
import * as m037 from './037-pause-until.migration';
import * as m039 from './039-stall-hours.migration';
import * as m040 from './040-kitchen-lines.migration';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export type MigrationModule = { up: (db: Kysely<any>, ddl: EngineDdl) => Promise<void> };

/** Every migration in order. Names are permanent: never rename or reorder a landed one. */
export const MIGRATIONS: Record<string, MigrationModule> = {
  '001-accounts-sessions': m001,
  '002-kisi-emulator': m002,
  '003-kisi-events': m003,
  '004-live-events': m004,
  '005-gym': m005,
  '006-shared-limits': m006,
  '007-food-court': m007,
  '008-messaging': m008,
  '009-uploads': m009,
  '010-catalogue': m010,
  '011-sample-cache': m011,
  '012-kisi-emulator-moved-out': m012,
  '013-audit-trail': m013,
  '014-kisi-events-filter-indexes': m014,
  '015-open-orders-index': m015,
  '016-order-tickets': m016,
  '017-wait-estimates': m017,
  '018-order-list-indexes': m018,
  '019-part-search': m019,
  '020-waiting-tickets-index': m020,
  '021-stall-queues': m021,
  '022-list-indexes': m022,
  '023-search-ranks': m023,
  '024-stall-queues-counted': m024,
  '025-door-access-outbox': m025,
  '026-door-access-claims': m026,
  '027-team-accounts': m027,
  '028-retention-indexes': m028,
  '029-door-access-outlives-the-member': m029,
  '030-food-court-figures': m030,
  '031-door-event-choices': m031,
  '032-staff-messages-trail-files': m032,
  '033-member-search': m033,
  '034-member-last-visit': m034,
  '035-remote-unlock-requests': m035,
  '036-member-visits': m036,
  '037-pause-until': m037,
  '039-stall-hours': m039,
  '040-kitchen-lines': m040,
};
