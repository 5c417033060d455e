import express from 'express';
import request from 'supertest';
import * as v from 'valibot';
import { IdParamSchema, NoContentSchema, PageQuerySchema } from '../contracts/common.contract';
import { endpoint } from '../contracts/endpoint.contract';
import { errorHandler } from './error-handler';
import { HttpError } from './http-error';
import { endpointRouter, route } from './endpoint-router';
import { createLogger } from './logger';

const Thing = v.object({ id: v.number(), name: v.string() });
const things = {
  get: endpoint({ method: 'GET', path: '/api/things/:id', summary: 'test', access: 'public', params: IdParamSchema, query: PageQuerySchema, response: Thing }),
  create: endpoint({
    method: 'POST',
    path: '/api/things',
    summary: 'test',
    access: 'public',
    body: v.object({ name: v.pipe(v.string('Enter a name'), v.nonEmpty('Enter a name')) }),
    response: Thing,
    status: 201,
  }),
  remove: endpoint({ method: 'DELETE', path: '/api/things/:id', summary: 'test', access: 'public', params: IdParamSchema, response: NoContentSchema, status: 204 }),
  broken: endpoint({ method: 'GET', path: '/api/broken', summary: 'test', access: 'public', response: Thing }),
  rename: endpoint({ method: 'PATCH', path: '/api/things/:id', summary: 'test', access: ['staff'], params: IdParamSchema, body: v.object({ name: v.string() }), response: Thing }),
};

function appWith(checkResponses: boolean) {
  const api = endpointRouter(
    [
      route(things.get, ({ params, query }) => ({ id: params.id, name: `page ${query.page} of ${query.pageSize}` })),
      route(things.create, ({ body }) => ({ id: 1, name: body.name })),
      route(things.remove, () => undefined),
      // A handler that breaks its contract (a bug the response check exists to catch).
      route(things.broken, () => ({ id: 'one', name: 'x' }) as unknown as { id: number; name: string }),
      route(things.rename, ({ params, body }) => ({ id: params.id, name: body.name }), { before: [(req, _res, next) => next(req.headers['x-stop'] ? new HttpError(429, 'Stopped before the body') : undefined)] }),
    ],
    { checkResponses, jsonBody: express.json() },
  );
  const app = express();
  // The app reads the session for the whole API, before any endpoint's access guard.
  app.use((req, _res, next) => {
    if (req.headers.cookie === 'sid=staff') req.user = { id: 1, email: 's@x.io', name: 'S', role: 'staff' };
    next();
  });
  app.use('/api', api, (_req, res) => void res.status(404).json({ fellThrough: true }));
  app.use(errorHandler(createLogger('silent')));
  return app;
}

describe('endpointRouter', () => {
  const app = appWith(true);

  it('hands the handler its parsed params and query (defaults filled in) and answers with the success status', async () => {
    await request(app).get('/api/things/12?page=2').expect(200, { id: 12, name: 'page 2 of 10' });
    await request(app).post('/api/things').send({ name: 'lamp' }).expect(201, { id: 1, name: 'lamp' });
    const removed = await request(app).delete('/api/things/3').expect(204);
    expect(removed.text).toBe('');
  });

  it('answers a path parameter that does not percent-decode with a 400 problem, not a 500', async () => {
    for (const path of ['/api/things/%ZZ', '/api/things/%', '/api/things/1%']) {
      const res = await request(app).get(path);
      expect({ path, status: res.status, type: res.headers['content-type'] }).toEqual({ path, status: 400, type: expect.stringMatching(/^application\/problem\+json/) });
      expect(res.body.detail).toBe('A part of the path is not valid percent-encoding.');
    }
  });

  it('answers a body that is not what its Content-Encoding says with a 400 problem, not a 500', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await request(app).post('/api/things').set('Content-Type', 'application/json').set('Content-Encoding', encoding).send('{"name":"not compressed"}');
      expect({ encoding, status: res.status, type: res.headers['content-type'] }).toEqual({ encoding, status: 400, type: expect.stringMatching(/^application\/problem\+json/) });
      expect({ encoding, detail: res.body.detail }).toEqual({ encoding, detail: 'The request body is not valid for its Content-Encoding (gzip, deflate or br).' });
    }
    // A body that really is gzip is read as usual.
    const { gzipSync } = await import('node:zlib');
    const zipped = gzipSync('{"name":"zipped"}');
    // superagent's types say a serializer answers a string; it writes a Buffer as it is.
    const asIs = () => zipped as unknown as string;
    await request(app).post('/api/things').set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').serialize(asIs).send({}).expect(201, { id: 1, name: 'zipped' });
  });

  it('answers one 400 problem listing every invalid field, a missing one in its schema’s own words', async () => {
    const bad = await request(app).get('/api/things/0?page=-1').expect(400);
    expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(bad.body.errors).toEqual([
      { path: 'params.id', message: 'Expected a positive integer id' },
      { path: 'query.page', message: 'Expected a page number of 0 or more' },
    ]);
    const missing = await request(app).post('/api/things').send({}).expect(400);
    expect(missing.body.errors).toEqual([{ path: 'body.name', message: 'Enter a name' }]);
  });

  it('refuses text holding a NUL character (which PostgreSQL cannot store) with a 400 naming the field', async () => {
    const res = await request(app).post('/api/things').send({ name: 'lamp\u0000shade' }).expect(400);
    expect(res.type).toBe('application/problem+json');
    expect(res.body.errors).toEqual([{ path: 'body.name', message: 'Text may not contain a NUL character' }]);
    await request(app).post('/api/things').send({ name: 'lamp shade', extra: '\u0000' }).expect(201);
  });

  it('refuses an answer that breaks the contract when checking (tests) and lets it through when not', async () => {
    const res = await request(app).get('/api/broken').expect(500);
    expect(res.body.detail).toBe('Something went wrong on the server. It has been logged.');
    await request(appWith(false)).get('/api/broken').expect(200, { id: 'one', name: 'x' });
  });

  it('finds a route as Express would: in any case, with one trailing slash, HEAD as GET; anything else goes on to the next middleware', async () => {
    await request(app).get('/API/Things/12/').expect(200, { id: 12, name: 'page 0 of 10' });
    const head = await request(app).head('/api/things/12').expect(200);
    expect(head.headers['content-type']).toMatch(/^application\/json/);
    for (const [method, path] of [['put', '/api/things/12'], ['get', '/api/things//'], ['get', '/api/things/12/more'], ['get', '/api/things/12//']] as const) {
      const res = await request(app)[method](path);
      expect({ method, path, status: res.status, body: res.body }).toEqual({ method, path, status: 404, body: { fellThrough: true } });
    }
  });

  it("answers OPTIONS with the path's methods (Express's own answer), and lets an unknown path's go on", async () => {
    const res = await request(app).options('/api/things/4').expect(200);
    expect(res.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
    expect((await request(app).options('/api/things').expect(200)).headers.allow).toBe('POST');
    await request(app).options('/api/nothing').expect(404);
  });

  it('reads the session before the access guard, and the body only after the route\'s own middleware has let the request on', async () => {
    const badJson = (req: request.Test) => req.set('Content-Type', 'application/json').send('{"name":');
    expect((await badJson(request(app).patch('/api/things/4')).expect(401)).body.detail).toBe('You need to log in.');
    expect((await badJson(request(app).patch('/api/things/4').set('Cookie', 'sid=staff').set('X-Stop', '1')).expect(429)).body.detail).toBe('Stopped before the body');
    expect((await badJson(request(app).patch('/api/things/4').set('Cookie', 'sid=staff')).expect(400)).body.detail).toBe('The request body is not valid JSON.');
    await request(app).patch('/api/things/4').set('Cookie', 'sid=staff').send({ name: 'lamp' }).expect(200, { id: 4, name: 'lamp' });
  });
});
