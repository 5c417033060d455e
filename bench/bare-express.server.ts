import express from 'express';
import type { AddressInfo } from 'node:net';

// The baseline of the gym benchmark (docs/ARCHITECTURE.md "Tests and quality bars"): a bare Express hello route, in its own process like the BFF under test.
const app = express();
app.get('/hello', (_req, res) => res.json({ hello: 'world' }));
const server = app.listen(0, '127.0.0.1', () => {
  console.log(`Frontdesk is running at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
