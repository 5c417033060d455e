import pino, { type Logger } from 'pino';

export type { Logger };

/** Paths that must never reach a log line: credentials, cookies and the Kisi key. */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  'password',
  '*.apiKey',
  '*.KISI_API_KEY',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'frontdesk' } }, destination);
}
