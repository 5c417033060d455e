import { Writable } from 'node:stream';
import request from 'supertest';
import { withTestContext } from '../test-support/test-app';
import { createLogger } from './logger';

describe('request logs', () => {
  it('write one line per request and never a password, cookie or session token', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    await withTestContext({ overrides: { logger: createLogger('info', sink) } }, async (ctx) => {
      const agent = await ctx.loginAs('staff', 'logged@frontdesk.test');
      lines.length = 0;
      await agent.get('/api/auth/getAuth').set('Authorization', 'KISI-LOGIN secret-kisi-key').expect(200);
      await request(ctx.app).post('/api/auth/login').send({ email: 'logged@frontdesk.test', password: 'my-secret-password' }).expect(401);
      await request(ctx.app).get('/api/bad').expect(500);

      const text = lines.join('');
      expect(lines.filter((l) => l.includes('"msg":"request completed"') || l.includes('"msg":"request errored"'))).toHaveLength(3);
      expect(text).not.toContain('my-secret-password');
      expect(text).not.toContain('secret-kisi-key');
      expect(text).not.toMatch(/sid=/);
      // The deliberate failure is logged with its stack for the operator.
      expect(text).toMatch(/fails on purpose[^"]*"?,?.*stack/s);
    });
  });

  it('log a refused request at info, so a flood of bad requests never fills the warnings, and the server\'s own failure at error', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    await withTestContext({ overrides: { logger: createLogger('warn', sink) } }, async (ctx) => {
      lines.length = 0;
      await request(ctx.app).post('/api/auth/login').set('Content-Type', 'application/json').send('{"email":').expect(400);
      await request(ctx.app).get('/api/gym/users/%ZZ').expect(400);
      await request(ctx.app).get('/api/gym/users').expect(401);
      await request(ctx.app).post('/api/auth/logout').set('Origin', 'https://evil.example').expect(403);
      await request(ctx.app).get('/api/nowhere').expect(404);
      expect(lines).toEqual([]);
      await request(ctx.app).get('/api/bad').expect(500);
      expect(lines.map((line) => JSON.parse(line).level)).toEqual([50, 50]);
    });
  });
});
