import express from 'express';
import { gymApi } from '../../contracts/gym.contract';
import { refuseDeepJson } from '../../lib/json-depth';
import { route } from '../../lib/endpoint-router';
import type { GymService } from './gym.service';
import type { MemberImportService } from './member-import.service';

/**
 * A CSV import's body: the file's text, up to 1 MB, in JSON (decision 0106), which escapes quotes and
 * line breaks: read here with room for that; the service answers 413 past the file's own limit.
 */
const importBody = express.json({ limit: '3mb', type: ['application/json', 'application/*+json'], verify: refuseDeepJson });

/** `/api/gym`: owners and members for the front desk (staff and admins); each change is audited as the signed-in account's. */
export const gymRoutes = (gym: GymService, imports: MemberImportService) => [
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
  route(gymApi.memberAttendance, ({ params }) => gym.memberAttendance(params.id)),
  route(gymApi.countVisits, ({ query }) => gym.countVisits(query)),
  route(gymApi.previewMemberImport, ({ body }) => imports.preview(body), { before: [importBody] }),
  route(gymApi.confirmMemberImport, ({ body }, { req }) => imports.confirm(req.user!, body), { before: [importBody] }),
];
