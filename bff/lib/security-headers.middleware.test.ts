import express from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import request from 'supertest';
import { securityHeaders } from './security-headers.middleware';

/** The headers worked out once are exactly the ones helmet sets on each response. */
const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: true, directives: { 'img-src': ["'self'", 'data:'], 'upgrade-insecure-requests': null } },
  strictTransportSecurity: false,
};

const headersFrom = async (middleware: express.RequestHandler) => {
  const app = express();
  app.disable('x-powered-by');
  app.use(middleware);
  app.get('/', (_req, res) => res.send('ok'));
  const { headers } = await request(app).get('/').expect(200);
  const { date: _date, etag: _etag, ...rest } = headers;
  return rest;
};

it('sets on every response the same security headers helmet sets', async () => {
  const fromHelmet = await headersFrom(helmet(OPTIONS));
  expect(fromHelmet['content-security-policy']).toMatch(/img-src 'self' data:/);
  expect(await headersFrom(securityHeaders(OPTIONS))).toEqual(fromHelmet);
  expect(await headersFrom(securityHeaders({ ...OPTIONS, strictTransportSecurity: true }))).toHaveProperty('strict-transport-security');
});
