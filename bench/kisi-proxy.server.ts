import { startServer } from '../bff/server';

// The BFF for the proxy benchmark: the normal server with the built-in emulator, except that the
// outgoing Kisi rate limit (5 req/s in production) is lifted so the proxy path itself is measured.
const running = await startServer(process.env, () => {}, { kisiRatePerSecond: Infinity });
console.log(`Kisi emulator at ${running.kisi.settings.baseUrl}`);
console.log(`Frontdesk is running at ${running.url}`);
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
