import express from 'express';
import request from 'supertest';
import type { SessionUser } from '../contracts/auth.contract';
import { readCookie, requireRole, sessionMiddleware } from './auth.middleware';
import { errorHandler } from './error-handler';
import { createLogger } from './logger';

const users: Record<string, SessionUser> = {
  'admin-token': { id: 1, email: 'a@x.io', name: 'A', role: 'admin' },
  'staff-token': { id: 2, email: 's@x.io', name: 'S', role: 'staff' },
  'runner-token': { id: 3, email: 'r@x.io', name: 'R', role: 'runner' },
};

const app = express();
app.use(sessionMiddleware(async (token) => users[token]));
app.get('/staff-only', requireRole('staff'), (_req, res) => res.json({ ok: true }));
app.get('/runner-board', requireRole('runner'), (_req, res) => res.json({ ok: true }));
app.use(errorHandler(createLogger('silent')));

describe('requireRole', () => {
  it('answers 401 without a session', async () => {
    await request(app).get('/staff-only').expect(401);
  });

  it('answers 403 with a problem for the wrong role', async () => {
    const res = await request(app).get('/staff-only').set('Cookie', 'sid=runner-token').expect(403);
    expect(res.body).toMatchObject({ status: 403, detail: 'Your role does not allow this.' });
    await request(app).get('/runner-board').set('Cookie', 'sid=staff-token').expect(403);
  });

  it('lets the role in, and admins everywhere', async () => {
    await request(app).get('/staff-only').set('Cookie', 'sid=staff-token').expect(200);
    await request(app).get('/staff-only').set('Cookie', 'sid=admin-token').expect(200);
    await request(app).get('/runner-board').set('Cookie', 'other=1; sid=admin-token').expect(200);
  });
});

describe('readCookie', () => {
  it('finds a cookie among others and survives bad encoding', () => {
    expect(readCookie('a=1; sid=abc; b=2', 'sid')).toBe('abc');
    expect(readCookie('sidx=1', 'sid')).toBeUndefined();
    expect(readCookie('sid=%E0%A4%A', 'sid')).toBeUndefined();
  });
});
