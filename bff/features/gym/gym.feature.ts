import type { Feature, FeatureContext } from '../../feature';
import { auditIn } from '../../db/audit-trail';
import type { Database } from '../../db/database';
import { erasePersonIn } from '../../db/personal-data';
import { KISI_DEMO_PEOPLE } from '../../kisi/emulator/emulator.seed';
import { periodicJob } from '../../lib/jobs';
import { doorAccessOutboxRepository } from './door-access-outbox.repository';
import { gymRoutes } from './gym.router';
import { gymSeeder } from './gym.seed';
import { gymService, type DoorAccess, type GymService } from './gym.service';
import { memberImportRepository } from './member-import.repository';
import { memberImportService } from './member-import.service';
import { membersRepository } from './members.repository';
import { ownersRepository } from './owners.repository';
import { visitsRepository } from './visits.repository';

/** How often the sender looks for due door switches, and how often it asks an away Kisi whether it is back. */
export interface DoorSyncTiming {
  pollMs: number;
  probeMs: number;
}
export const DOOR_SYNC_TIMING: DoorSyncTiming = { pollMs: 1_000, probeMs: 10_000 };

/** How many members wait for their door access to follow their membership (the metrics' gauge). */
export const doorSwitchesWaiting = async (database: Pick<Database, 'db'>) => (await doorAccessOutboxRepository(database.db).summary()).waiting;

/**
 * The door-access sender (issue 53): after each start, members not confirmed with nothing queued are
 * queued and, if Kisi answers, every waiting switch is due at once; then every `pollMs` the due
 * switches are claimed and sent. While Kisi is away it is asked every `probeMs` with one cheap
 * request, and when it answers again every waiting switch is due at once.
 */
export function doorAccessSender(gym: GymService, timing: DoorSyncTiming, log: FeatureContext['logger']) {
  let started = false;
  let lastProbe = 0;
  let failing = false;
  async function work() {
    if (!started) {
      const queued = await gym.queueUnconfirmed();
      if (queued > 0) log.info({ queued }, 'door access: members not confirmed with Kisi queued after the start');
      started = true;
      lastProbe = Date.now();
      if (!(await gym.probeKisi({ afterStart: true }))) return;
    }
    if (gym.kisiSeemsDown()) {
      if (Date.now() - lastProbe < timing.probeMs) return;
      lastProbe = Date.now();
      if (!(await gym.probeKisi())) return;
    }
    await gym.sendOwed(null);
  }
  // Every second: a failure (the database away) is logged at warn once, until a run succeeds again.
  return periodicJob(
    'door access sender',
    timing.pollMs,
    () =>
      work().then(
        () => void (failing = false),
        (err: unknown) => {
          if (!failing) log.warn({ err: err instanceof Error ? err.message : String(err) }, 'door access sender failed; it tries again every second');
          failing = true;
        },
      ),
    log,
  );
}

/**
 * The pause job: every `everyMs` (and at each start) the pauses that end on the venue's today or
 * before are resumed (`resumeEndedPauses`). It keeps nothing in memory: the day is on the member's
 * row, and each resume is a conditional update, so any number of instances may run it at once.
 */
export function pauseEnder(gym: GymService, everyMs: number, log: FeatureContext['logger']) {
  return periodicJob(
    'pause ender',
    everyMs,
    async () => {
      const resumed = await gym.resumeEndedPauses();
      if (resumed > 0) log.info({ resumed }, 'pauses ended: memberships active again, door access owed to Kisi');
    },
    log,
  );
}

/** `/api/gym`: owners and members for the front desk, their door access through `door`. */
export function gymFeature({ config, database, mount, logger, bus }: FeatureContext, { door, doorSync = DOOR_SYNC_TIMING }: { door: DoorAccess; doorSync?: DoorSyncTiming }): Feature {
  const gym = gymService({
    owners: ownersRepository(database.db),
    members: membersRepository(database.db, database.containsMatch),
    visits: visitsRepository(database.db, config.VENUE_TIME_ZONE),
    outbox: doorAccessOutboxRepository(database.db),
    door,
    timeZone: config.VENUE_TIME_ZONE,
    // Each change with its audit entry and the door switch it makes due (and a deleted member's erasure, an ended pause's live event), in one transaction.
    inTransaction: (work) =>
      bus.write((trx, announce) =>
        work({
          owners: ownersRepository(trx),
          members: membersRepository(trx, database.containsMatch),
          outbox: doorAccessOutboxRepository(trx),
          audit: auditIn(trx),
          erase: erasePersonIn(trx),
          announce: (news) => announce('member', news),
        }),
      ),
  });
  const imports = memberImportService({ lookups: memberImportRepository(database.db), gym });
  return { ...mount(gymRoutes(gym, imports)), jobs: [doorAccessSender(gym, doorSync, logger), pauseEnder(gym, config.PAUSE_CHECK_EVERY_MS, logger)], seeders: [gymSeeder(KISI_DEMO_PEOPLE)] };
}
