import type { Feature, FeatureContext } from '../../feature';
import { auditIn } from '../../db/audit-trail';
import { KISI_DEMO_PEOPLE } from '../../kisi/emulator/emulator.seed';
import { gymRoutes } from './gym.router';
import { gymSeeder } from './gym.seed';
import { gymService, type DoorAccess } from './gym.service';
import { membersRepository } from './members.repository';
import { ownersRepository } from './owners.repository';
import { visitsRepository } from './visits.repository';

/** `/api/gym`: owners and members for the front desk, their door access through `door`. */
export function gymFeature({ database, mount }: FeatureContext, { door }: { door: DoorAccess }): Feature {
  const gym = gymService({
    owners: ownersRepository(database.db),
    members: membersRepository(database.db),
    visits: visitsRepository(database.db),
    door,
    // Each change with its audit entry, in one transaction.
    inTransaction: (work) => database.db.transaction().execute((trx) => work({ owners: ownersRepository(trx), members: membersRepository(trx), audit: auditIn(trx) })),
  });
  return { ...mount(gymRoutes(gym)), seeders: [gymSeeder(KISI_DEMO_PEOPLE)] };
}
