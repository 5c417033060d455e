import { gymApi } from '../../contracts/gym.contract';
import { route } from '../../lib/endpoint-router';
import type { GymService } from './gym.service';

/** `/api/gym`: owners and members for the front desk (staff and admins). */
export const gymRoutes = (gym: GymService) => [
  route(gymApi.listOwners, ({ query }) => gym.listOwners(query)),
  route(gymApi.getOwner, ({ params }) => gym.getOwner(params.id)),
  route(gymApi.createOwner, ({ body }) => gym.createOwner(body)),
  route(gymApi.deleteOwner, ({ params }) => gym.deleteOwner(params.id)),
  route(gymApi.listMembers, ({ query }) => gym.listMembers(query)),
  route(gymApi.getMember, ({ params }) => gym.getMember(params.id)),
  route(gymApi.createMember, ({ body }) => gym.createMember(body)),
  route(gymApi.updateMember, ({ params, body }) => gym.updateMember(params.id, body)),
  route(gymApi.deleteMember, ({ params }) => gym.deleteMember(params.id)),
  route(gymApi.doorAccess, ({ params }) => gym.doorAccess(params.id)),
  route(gymApi.syncDoorAccess, ({ params }) => gym.syncDoorAccess(params.id)),
];
