import * as v from 'valibot';
import { DEFAULT_ALLOWED_TYPES } from './contracts/uploads.contract';
import { canonicalTimeZone } from './lib/time-zone';

const boolean = (name: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.picklist(['true', 'false', '1', '0', 'yes', 'no'], `${name} must be true or false`),
    v.transform((s) => s === 'true' || s === '1' || s === 'yes'),
  );

const integer = (name: string, min: number, max: number) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`),
    v.transform(Number),
    v.minValue(min, `${name} must be a whole number from ${min} to ${max}`),
    v.maxValue(max, `${name} must be a whole number from ${min} to ${max}`),
  );

/** Hours as a whole or decimal number (`24`, `0.5`), from 0 to `max`. */
const hours = (name: string, max: number) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+(\.\d+)?$/, `${name} must be a number of hours from 0 to ${max} (fractions such as 0.5 allowed)`),
    v.transform(Number),
    v.maxValue(max, `${name} must be a number of hours from 0 to ${max} (fractions such as 0.5 allowed)`),
  );

const httpUrl = (name: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.url(`${name} must be an absolute http(s) URL`),
    v.regex(/^https?:\/\//, `${name} must be an absolute http(s) URL`),
    v.transform((s) => s.replace(/\/+$/, '')),
  );

/**
 * The origins users open the app at, comma-separated (`https://desk.example.com`): each is written
 * as its scheme, host and port only, the way browsers send it in `Origin`.
 */
const publicOrigins = v.pipe(
  v.string(),
  v.transform((s) => s.split(',').map((part) => part.trim()).filter((part) => part !== '')),
  v.minLength(1, 'PUBLIC_ORIGIN must list at least one origin such as https://desk.example.com'),
  v.array(
    v.pipe(
      v.string(),
      v.check((s) => {
        try {
          const url = new URL(s);
          return /^https?:$/.test(url.protocol) && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
        } catch {
          return false;
        }
      }, 'PUBLIC_ORIGIN must list origins like https://desk.example.com or http://10.0.0.5:3000 (scheme, host and port only, no path)'),
      v.transform((s) => new URL(s).origin),
    ),
  ),
);

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Express's `trust proxy`: false, true, a hop count, or a list of addresses/subnets. */
const trustProxy = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty('TRUST_PROXY must be false, true, a hop count or a list of addresses'),
  v.transform((s): boolean | number | string => {
    if (/^(false|0|no)$/i.test(s)) return false;
    if (/^(true|yes)$/i.test(s)) return true;
    if (/^\d+$/.test(s)) return Number(s);
    return s;
  }),
);

const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test'], 'NODE_ENV must be development, production or test'), 'production'),
  PORT: v.optional(integer('PORT', 0, 65535), '3000'),
  HOST: v.optional(v.pipe(v.string(), v.nonEmpty('HOST must not be empty')), '0.0.0.0'),
  DATABASE_URL: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^(file:.+|:memory:|postgres(ql)?:\/\/.+)$/, 'DATABASE_URL must be file:<path> (SQLite) or postgres://user:password@host:port/database (PostgreSQL)'),
    ),
    'file:./data/frontdesk.db',
  ),
  DATABASE_POOL_SIZE: v.optional(integer('DATABASE_POOL_SIZE', 1, 100), '10'),
  /** PostgreSQL: opening a connection (or waiting for a free one) fails after this long, and the request is answered 503. */
  DATABASE_CONNECT_TIMEOUT_MS: v.optional(integer('DATABASE_CONNECT_TIMEOUT_MS', 100, 120_000), '5000'),
  /**
   * PostgreSQL: a statement of a request (or waiting for a lock) is cancelled after this long and the
   * request answered 503 (0: no limit). SQLite has no statement timeout: its busy timeout (5 s) bounds the wait for the write lock.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: v.optional(
    v.pipe(integer('DATABASE_STATEMENT_TIMEOUT_MS', 0, 600_000), v.check((ms) => ms === 0 || ms >= 100, 'DATABASE_STATEMENT_TIMEOUT_MS must be 0 (no limit) or a whole number from 100 to 600000')),
    '15000',
  ),
  /** On SIGTERM: how long requests in flight may take to finish before their connections are cut. */
  SHUTDOWN_GRACE_MS: v.optional(integer('SHUTDOWN_GRACE_MS', 0, 600_000), '10000'),
  /**
   * On SIGTERM: how long the instance keeps listening, readiness answering 503 "stopping", before it
   * stops taking connections (a balancer that routes by readiness sees it first). Unset: 5000 in
   * production, 0 otherwise (`npm run dev` restarts at once).
   */
  SHUTDOWN_DRAIN_MS: v.optional(integer('SHUTDOWN_DRAIN_MS', 0, 120_000)),
  /** Turns `GET /metrics` on, for callers sending `Authorization: Bearer <it>`; unset, /metrics does not exist. */
  METRICS_TOKEN: v.optional(v.pipe(v.string(), v.trim(), v.minLength(16, 'METRICS_TOKEN must be at least 16 characters'), v.regex(/^[\x21-\x7e]+$/, 'METRICS_TOKEN must be printable ASCII without spaces'))),
  ADMIN_EMAIL: v.optional(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email('ADMIN_EMAIL must be an email address')), 'admin@frontdesk.local'),
  ADMIN_PASSWORD: v.optional(v.pipe(v.string(), v.minLength(12, 'ADMIN_PASSWORD must be at least 12 characters'))),
  SESSION_TTL_HOURS: v.optional(integer('SESSION_TTL_HOURS', 1, 24 * 90), '12'),
  COOKIE_SECURE: v.optional(boolean('COOKIE_SECURE'), 'false'),
  TRUST_PROXY: v.optional(trustProxy, 'false'),
  PUBLIC_ORIGIN: v.optional(publicOrigins),
  LOG_LEVEL: v.optional(v.picklist(LOG_LEVELS, `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`), 'info'),
  STATIC_DIR: v.optional(v.pipe(v.string(), v.nonEmpty('STATIC_DIR must not be empty')), 'dist/client'),
  KISI_BASE_URL: v.optional(httpUrl('KISI_BASE_URL')),
  KISI_API_KEY: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('KISI_API_KEY must not be empty'))),
  KISI_GROUP_ID: v.optional(integer('KISI_GROUP_ID', 1, Number.MAX_SAFE_INTEGER)),
  KISI_TIMEOUT_MS: v.optional(integer('KISI_TIMEOUT_MS', 100, 120_000), '10000'),
  KISI_WEBHOOK_SECRET: v.optional(v.pipe(v.string(), v.minLength(16, 'KISI_WEBHOOK_SECRET must be at least 16 characters'))),
  /** How often Kisi's event log is read for door events whose webhooks did not arrive (also once after each start). */
  KISI_CATCH_UP_MINUTES: v.optional(integer('KISI_CATCH_UP_MINUTES', 1, 1440), '5'),
  VENUE_TABLES: v.optional(integer('VENUE_TABLES', 1, 999), '40'),
  ORDERS_PER_MINUTE: v.optional(integer('ORDERS_PER_MINUTE', 30, 100_000), '60'),
  /** Diners' menu streams one address may hold open on an instance; past it the oldest gives way (a venue's Wi-Fi is one address). */
  MENU_STREAMS_PER_ADDRESS: v.optional(integer('MENU_STREAMS_PER_ADDRESS', 1, 100_000), '200'),
  UPLOADS_DIR: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('UPLOADS_DIR must not be empty')), './data/uploads'),
  UPLOAD_MAX_FILE_MB: v.optional(integer('UPLOAD_MAX_FILE_MB', 1, 100_000), '250'),
  UPLOAD_MAX_BATCH_MB: v.optional(integer('UPLOAD_MAX_BATCH_MB', 1, 1_000_000), '1000'),
  UPLOAD_MAX_FILES: v.optional(integer('UPLOAD_MAX_FILES', 1, 1000), '20'),
  UPLOAD_QUOTA_MB: v.optional(integer('UPLOAD_QUOTA_MB', 1, 10_000_000), '2048'),
  /** Comma-separated MIME types, a subset of the known ones (default: all of them). */
  UPLOAD_TYPES: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('UPLOAD_TYPES must list at least one type'))),
  MESSAGES_PER_MINUTE: v.optional(integer('MESSAGES_PER_MINUTE', 5, 100_000), '30'),
  HELP_REQUESTS_PER_HOUR: v.optional(integer('HELP_REQUESTS_PER_HOUR', 1, 100_000), '10'),
  /** Days each kind of record is kept before the daily purge removes it (0: kept for ever); decision 0097 says why these. */
  RETAIN_DOOR_EVENTS_DAYS: v.optional(integer('RETAIN_DOOR_EVENTS_DAYS', 0, 36_500), '400'),
  RETAIN_CHAT_DAYS: v.optional(integer('RETAIN_CHAT_DAYS', 0, 36_500), '365'),
  RETAIN_CONVERSATIONS_DAYS: v.optional(integer('RETAIN_CONVERSATIONS_DAYS', 0, 36_500), '180'),
  RETAIN_FILES_DAYS: v.optional(integer('RETAIN_FILES_DAYS', 0, 36_500), '365'),
  RETAIN_AUDIT_DAYS: v.optional(integer('RETAIN_AUDIT_DAYS', 0, 36_500), '730'),
  RETAIN_ORDERS_DAYS: v.optional(integer('RETAIN_ORDERS_DAYS', 0, 36_500), '730'),
  RETAIN_LIVE_EVENTS_DAYS: v.optional(integer('RETAIN_LIVE_EVENTS_DAYS', 0, 36_500), '7'),
  VENUE_CURRENCY: v.optional(v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{3}$/, 'VENUE_CURRENCY must be a three-letter currency code such as EUR')), 'EUR'),
  /** The venue's clock (an IANA zone such as Europe/Lisbon): the food court's reports count its days and hours. */
  VENUE_TIME_ZONE: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check((zone) => canonicalTimeZone(zone) !== undefined, 'VENUE_TIME_ZONE must be an IANA time zone such as Europe/Lisbon or UTC'),
      v.transform((zone) => canonicalTimeZone(zone)!),
    ),
    // The server's own zone: a venue's one machine is usually set to the venue's clock.
    () => canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC') ?? 'UTC',
  ),
  /** How often a server looks for pauses that end today (the venue's day): a pause ends at the first look after the venue's midnight. */
  PAUSE_CHECK_EVERY_MS: v.optional(integer('PAUSE_CHECK_EVERY_MS', 100, 3_600_000), '60000'),
  SAMPLES_POKEAPI_URL: v.optional(httpUrl('SAMPLES_POKEAPI_URL'), 'https://pokeapi.co/api/v2'),
  SAMPLES_JSONPLACEHOLDER_URL: v.optional(httpUrl('SAMPLES_JSONPLACEHOLDER_URL'), 'https://jsonplaceholder.typicode.com'),
  SAMPLES_RICKANDMORTY_URL: v.optional(httpUrl('SAMPLES_RICKANDMORTY_URL'), 'https://rickandmortyapi.com/api'),
  /** PokeAPI's pictures live in its sprites repository, not on the API's host: the folder `sprites/` of it. */
  SAMPLES_POKEAPI_SPRITES_URL: v.optional(httpUrl('SAMPLES_POKEAPI_SPRITES_URL'), 'https://raw.githubusercontent.com/PokeAPI/sprites/master/sprites'),
  SAMPLES_TIMEOUT_MS: v.optional(integer('SAMPLES_TIMEOUT_MS', 100, 60_000), '5000'),
  /** How long an upstream answer is reused from memory before the upstream is asked again (0: never). */
  SAMPLES_CACHE_SECONDS: v.optional(integer('SAMPLES_CACHE_SECONDS', 0, 86_400), '60'),
  SAMPLES_IMAGE_DIR: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('SAMPLES_IMAGE_DIR must not be empty')), './data/sample-images'),
  /** SAMPLES_IMAGE_DIR is pruned to this size, least recently used pictures first. */
  SAMPLES_IMAGE_DIR_MAX_MB: v.optional(integer('SAMPLES_IMAGE_DIR_MAX_MB', 1, 1_000_000), '200'),
  /** Where Rebrickable's pictures live: its `sets/` and `parts/` folders are the catalogue's picture locations (a mirror, or a local fake in tests, beside Rebrickable's own). */
  CATALOGUE_MEDIA_URL: v.optional(httpUrl('CATALOGUE_MEDIA_URL'), 'https://cdn.rebrickable.com/media'),
  CATALOGUE_IMAGE_DIR: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('CATALOGUE_IMAGE_DIR must not be empty')), './data/catalogue-images'),
  /** CATALOGUE_IMAGE_DIR is pruned to this size, least recently used pictures first. */
  CATALOGUE_IMAGE_DIR_MAX_MB: v.optional(integer('CATALOGUE_IMAGE_DIR_MAX_MB', 1, 1_000_000), '500'),
  /** Where `npm run backup` and the server's scheduled backups go, one folder each (docs/operations.md). */
  BACKUP_DIR: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('BACKUP_DIR must not be empty')), './data/backups'),
  /** Hours between the server's backups (fractions allowed; 0: the server takes none). */
  BACKUP_EVERY_HOURS: v.optional(hours('BACKUP_EVERY_HOURS', 8760), '24'),
  /** Backups kept in BACKUP_DIR: after each one the oldest beyond this many are deleted (0: all are kept). */
  BACKUP_KEEP: v.optional(integer('BACKUP_KEEP', 0, 10_000), '7'),
});

const ConfigSchema = v.pipe(
  EnvSchema,
  v.check((env) => !env.KISI_BASE_URL || !!env.KISI_API_KEY, 'KISI_API_KEY is required when KISI_BASE_URL is set'),
  v.check((env) => !env.KISI_BASE_URL || env.KISI_GROUP_ID !== undefined, 'KISI_GROUP_ID is required when KISI_BASE_URL is set'),
  v.check(
    (env) => !env.UPLOAD_TYPES || env.UPLOAD_TYPES.split(',').every((type) => type.trim() in DEFAULT_ALLOWED_TYPES),
    `UPLOAD_TYPES may list only ${Object.keys(DEFAULT_ALLOWED_TYPES).join(', ')}`,
  ),
);

export type Config = v.InferOutput<typeof EnvSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the environment once; every problem is listed by variable name. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // Empty strings count as unset, so `PORT= npm start` means the default.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = v.safeParse(ConfigSchema, present);
  if (result.success) return result.output;
  const lines = result.issues.map((issue) => {
    const key = v.getDotPath(issue);
    return key && !issue.message.startsWith(key) ? `${key}: ${issue.message}` : issue.message;
  });
  throw new ConfigError(`Invalid configuration:\n  - ${lines.join('\n  - ')}`);
}

export const kisiMode = (config: Config): 'emulator' | 'remote' => (config.KISI_BASE_URL ? 'remote' : 'emulator');
