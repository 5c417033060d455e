import express from 'express';
import * as v from 'valibot';
import { endpoint } from '../contracts/endpoint.contract';
import { endpointRouter, route } from './endpoint-router';
import request from 'supertest';
import type { SessionUser } from '../contracts/auth.contract';
import { readCookie, sessionMiddleware } from './auth.middleware';
import { errorHandler } from './error-handler';
import { createLogger } from './logger';

const users: Record<string, SessionUser> = {
  'admin-token': { id: 1, email: 'a@x.io', name: 'A', role: 'admin' },
  'staff-token': { id: 2, email: 's@x.io', name: 'S', role: 'staff' },
  'runner-token': { id: 3, email: 'r@x.io', name: 'R', role: 'runner' },
};

const app = express();
app.use(sessionMiddleware(async (token) => users[token]));
const ok = v.object({ ok: v.boolean() });
const api = endpointRouter(
  [
  route(endpoint({ method: 'GET', path: '/api/staff-only', summary: 'test', access: ['staff'], response: ok }), () => ({ ok: true })),
  route(endpoint({ method: 'GET', path: '/api/runner-board', summary: 'test', access: ['runner'], response: ok }), () => ({ ok: true })),
  ],
  { jsonBody: express.json() },
);
app.use('/api', api);
app.use(errorHandler(createLogger('silent')));

describe("an endpoint's access", () => {
  it('answers 401 without a session', async () => {
    await request(app).get('/api/staff-only').expect(401);
  });

  it('answers 403 with a problem for the wrong role', async () => {
    const res = await request(app).get('/api/staff-only').set('Cookie', 'sid=runner-token').expect(403);
    expect(res.body).toMatchObject({ status: 403, detail: 'Your role does not allow this.' });
    await request(app).get('/api/runner-board').set('Cookie', 'sid=staff-token').expect(403);
  });

  it('lets the role in, and admins everywhere', async () => {
    await request(app).get('/api/staff-only').set('Cookie', 'sid=staff-token').expect(200);
    await request(app).get('/api/staff-only').set('Cookie', 'sid=admin-token').expect(200);
    await request(app).get('/api/runner-board').set('Cookie', 'other=1; sid=admin-token').expect(200);
  });
});

describe('readCookie', () => {
  it('finds a cookie among others and survives bad encoding', () => {
    expect(readCookie('a=1; sid=abc; b=2', 'sid')).toBe('abc');
    expect(readCookie('sidx=1', 'sid')).toBeUndefined();
    expect(readCookie('sid=%E0%A4%A', 'sid')).toBeUndefined();
  });
});
