import { startServer } from '../bff/server';

// The BFF for the proxy benchmark: the normal server, except that the outgoing Kisi rate (5 req/s in
// production) is set far above what the load can reach, so the proxy is measured, not Kisi's quota.
// Every request still takes its start in the shared window, as in production.
const running = await startServer(process.env, () => {}, { kisiRatePerSecond: 1_000_000 });
console.log(`Kisi emulator at ${running.kisi.settings.baseUrl}`);
console.log(`Frontdesk is running at ${running.url}`);
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
