import express from 'express';
import type { AddressInfo } from 'node:net';

// The baselines of the benchmarks (docs/ARCHITECTURE.md "Tests and quality bars"), in their own process like the BFF under test:
// a bare Express hello route (the gym list), and a bare JSON POST route (the food-court order) that parses the body and answers 201.
const app = express();
app.get('/hello', (_req, res) => res.json({ hello: 'world' }));

let created = 0;
// The parser on this route only, so the GET baseline stays a bare route. The answer uses the parsed body, so the parse cannot be skipped.
app.post('/echo', express.json(), (req, res) => {
  const body = req.body as { table?: unknown; cart?: unknown };
  res.status(201).json({ id: ++created, status: 'received', table: body.table, lines: Array.isArray(body.cart) ? body.cart.length : 0 });
});

const server = app.listen(0, '127.0.0.1', () => {
  console.log(`Frontdesk is running at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
