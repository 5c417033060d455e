import { Router } from 'express';
import { IdParamSchema } from '../../contracts/common.contract';
import { CreateMemberSchema, CreateOwnerSchema, MemberListQuerySchema, OwnerListQuerySchema, UpdateMemberSchema } from '../../contracts/gym.contract';
import { requireRole } from '../../lib/auth.middleware';
import { validate } from '../../lib/validate';
import type { GymService } from './gym.service';

/** `/api/gym`: owners and members for the front desk (staff and admins). */
export function gymRouter(gym: GymService) {
  const router = Router();
  router.use(requireRole('staff'));

  router.get('/owners', validate({ query: OwnerListQuerySchema }, async ({ query }, _req, res) => res.json(await gym.listOwners(query))));
  router.get('/owners/:id', validate({ params: IdParamSchema }, async ({ params }, _req, res) => res.json(await gym.getOwner(params.id))));
  router.post('/owners', validate({ body: CreateOwnerSchema }, async ({ body }, _req, res) => res.status(201).json(await gym.createOwner(body))));
  router.delete(
    '/owners/:id',
    validate({ params: IdParamSchema }, async ({ params }, _req, res) => {
      await gym.deleteOwner(params.id);
      res.status(204).end();
    }),
  );

  router.get('/users', validate({ query: MemberListQuerySchema }, async ({ query }, _req, res) => res.json(await gym.listMembers(query))));
  router.get('/users/:id', validate({ params: IdParamSchema }, async ({ params }, _req, res) => res.json(await gym.getMember(params.id))));
  router.post('/users', validate({ body: CreateMemberSchema }, async ({ body }, _req, res) => res.status(201).json(await gym.createMember(body))));
  router.patch(
    '/users/:id',
    validate({ params: IdParamSchema, body: UpdateMemberSchema }, async ({ params, body }, _req, res) => res.json(await gym.updateMember(params.id, body))),
  );
  router.delete(
    '/users/:id',
    validate({ params: IdParamSchema }, async ({ params }, _req, res) => {
      await gym.deleteMember(params.id);
      res.status(204).end();
    }),
  );
  router.get('/users/:id/access', validate({ params: IdParamSchema }, async ({ params }, _req, res) => res.json(await gym.doorAccess(params.id))));
  router.post('/users/:id/access/sync', validate({ params: IdParamSchema }, async ({ params }, _req, res) => res.json(await gym.syncDoorAccess(params.id))));

  return router;
}
