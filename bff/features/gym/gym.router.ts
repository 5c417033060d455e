import { gymApi } from '../../contracts/gym.contract';
import { route } from '../../lib/endpoint-router';
import type { GymService } from './gym.service';

/** `/api/gym`: owners and members for the front desk (staff and admins); each change is audited as the signed-in account's. */
export const gymRoutes = (gym: GymService) => [
  route(gymApi.listOwners, ({ query }) => gym.listOwners(query)),
  route(gymApi.getOwner, ({ params }) => gym.getOwner(params.id)),
  route(gymApi.createOwner, ({ body }, { req }) => gym.createOwner(req.user!, body)),
  route(gymApi.deleteOwner, ({ params }, { req }) => gym.deleteOwner(req.user!, params.id)),
  route(gymApi.listMembers, ({ query }) => gym.listMembers(query)),
  route(gymApi.getMember, ({ params }) => gym.getMember(params.id)),
  route(gymApi.createMember, ({ body }, { req }) => gym.createMember(req.user!, body)),
  route(gymApi.updateMember, ({ params, body }, { req }) => gym.updateMember(req.user!, params.id, body)),
  route(gymApi.deleteMember, ({ params, query }, { req }) => gym.deleteMember(req.user!, params.id, { erase: query.erase })),
  route(gymApi.doorAccess, ({ params }) => gym.doorAccess(params.id)),
  route(gymApi.doorSyncStatus, () => gym.doorSyncStatus()),
  route(gymApi.syncDoorAccess, ({ params }, { req }) => gym.syncDoorAccess(req.user!, params.id)),
  route(gymApi.countVisits, ({ query }) => gym.countVisits(query)),
];
