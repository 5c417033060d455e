import crypto from 'node:crypto';
import type { Logger } from '../../lib/logger';
import { receiveKisiEvent, type ReceiveKisiEventDeps } from './kisi-event.receive';
import type { KisiEventsRepository } from './kisi-events.repository';

/**
 * Kisi delivers each webhook at least once but gives up on a receiver that is away, so what happened
 * while the BFF was down (or unreachable) is caught up from Kisi's event log: after a start and every
 * few minutes, the log is read since the last catch-up and every door event in it is stored through
 * the webhook receiver's own store-once path (a duplicate is a no-op), with its live event like a webhook.
 *
 * Where a catch-up starts: the mark the previous one left (`caughtUpTo`, the newest event time it
 * read, on Kisi's clock) — not the newest stored event, which a webhook arriving after a restart
 * (a new unlock, or Kisi retrying one it missed) would move past the events still missing. Before
 * any catch-up: the newest stored event; on a brand-new database, its first start. Kisi's older
 * history is not this front desk's inbox (it may be months of every door), and in emulator mode
 * the seeded history is stored by the seeder.
 */

/**
 * The door events Kisi logs (docs/kisi-api.md §6, `enabled_events`): what the inbox is for. A lock's
 * own create/update/destroy are administration, and the rest of Kisi's log (users, groups, logins…)
 * is not the door's.
 */
export const KISI_DOOR_EVENT_TYPES = [
  'lock.unlock',
  'lock.opened',
  'lock.closed',
  'lock.locked',
  'lock.held_open',
  'lock.forced_open',
  'lock.tailgate',
  'lock.lock_down',
  'lock.cancel_lockdown',
  'lock.scheduled_unlock_started',
  'lock.scheduled_unlock_ended',
  'lock.first_to_arrive',
  'lock.last_to_leave',
] as const;

/**
 * How far before the mark a catch-up reads again: Kisi's log compares times to the second (ties in
 * the mark's second), and an event may be logged a little after the moment it carries. Re-reading
 * costs one page of duplicates.
 */
export const CATCH_UP_OVERLAP_MS = 60_000;
/** Kisi's largest event-log page, and its largest `offset`. */
export const KISI_EVENTS_PAGE = 250;
export const KISI_MAX_OFFSET = 20_000;
/** How long one instance may hold the catch-up before another may take over (a run is seconds). */
export const CATCH_UP_LEASE_MS = 5 * 60_000;
export const DEFAULT_CATCH_UP_INTERVAL_MS = 5 * 60_000;

export interface KisiEventLogQuery {
  types: readonly string[];
  since: string;
  until?: string;
  offset: number;
  limit: number;
}
/** One page of Kisi's event log, newest first, and how many events match in all when Kisi says. */
export type ReadKisiEventLog = (query: KisiEventLogQuery, stop: AbortSignal) => Promise<{ events: unknown[]; total: number | undefined }>;

export interface KisiEventsCatchUpDeps extends Pick<ReceiveKisiEventDeps, 'emailOfKisiUser' | 'inTransaction' | 'onEmailMissing'> {
  /**
   * Kisi's log names a user's email (its webhooks do not): told each one read, so events already
   * stored without it (a webhook at Kisi's rate limit) get it without a lookup of their own.
   */
  actorEmailSeen?: (kisiUserId: number, email: string) => void;
  events: KisiEventsRepository;
  readLog: ReadKisiEventLog;
  logger: Logger;
  now?: () => Date;
  /** Kisi's paging (tests make them small to reach the edges). */
  pageSize?: number;
  maxOffset?: number;
}

export type CatchUpResult = { status: 'done'; since: string; read: number; stored: number } | { status: 'busy' };

type LogEntry = { body: Record<string, unknown>; uuid: string; at: number };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const SECOND = 1000;

export function kisiEventsCatchUp(deps: KisiEventsCatchUpDeps) {
  const { events, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const pageSize = deps.pageSize ?? KISI_EVENTS_PAGE;
  const maxOffset = deps.maxOffset ?? KISI_MAX_OFFSET;
  const holder = crypto.randomUUID();

  /**
   * Every door event since `since`, newest first, once each. Paging newest first by offset cannot
   * skip an event that was there when the read began (one logged meanwhile only pushes the rest
   * down a place: a duplicate). Past Kisi's largest offset, the read goes on from the oldest second
   * seen so far.
   */
  async function readSince(since: string, stop: AbortSignal): Promise<LogEntry[]> {
    const seen = new Map<string, LogEntry>();
    let until: string | undefined;
    let offset = 0;
    for (;;) {
      const page = await deps.readLog({ types: KISI_DOOR_EVENT_TYPES, since, until, offset, limit: pageSize }, stop);
      let oldest = Infinity;
      for (const body of page.events) {
        const at = isRecord(body) && typeof body.created_at === 'string' ? Date.parse(body.created_at) : NaN;
        // Kisi's log always names its events; without a uuid there is nothing to store once by.
        if (!isRecord(body) || typeof body.uuid !== 'string' || !body.uuid || Number.isNaN(at)) continue;
        oldest = Math.min(oldest, at);
        if (!seen.has(body.uuid)) seen.set(body.uuid, { body, uuid: body.uuid, at });
      }
      offset += page.events.length;
      if (page.events.length === 0 || (page.total !== undefined && offset >= page.total) || (page.total === undefined && page.events.length < pageSize)) break;
      if (offset + pageSize > maxOffset) {
        const next = new Date(Math.floor(oldest / SECOND) * SECOND + SECOND).toISOString();
        if (!Number.isFinite(oldest) || (until !== undefined && next >= until)) {
          logger.warn({ since, until }, 'kisi catch-up: more events in one second than Kisi pages through; the oldest of them are not read');
          break;
        }
        until = next;
        offset = 0;
      }
    }
    return [...seen.values()];
  }

  async function runOnce(stop: AbortSignal): Promise<CatchUpResult> {
    const started = now();
    if (!(await events.claimCatchUp(holder, started.toISOString(), new Date(started.getTime() + CATCH_UP_LEASE_MS).toISOString()))) return { status: 'busy' };
    try {
      const mark = (await events.caughtUpTo()) ?? (await events.newestCreatedAt()) ?? (await events.firstStart()) ?? started.toISOString();
      const since = new Date(Date.parse(mark) - CATCH_UP_OVERLAP_MS).toISOString();
      // Oldest first, so the inbox's ids and the live stream follow the order things happened in.
      const log = (await readSince(since, stop)).reverse().sort((a, b) => a.at - b.at);
      const deleted = await events.deletedAmong(log.map((e) => e.uuid));
      let newest = Date.parse(mark);
      let stored = 0;
      for (const entry of log) {
        if (stop.aborted) throw new Error('kisi catch-up stopped');
        newest = Math.max(newest, entry.at);
        const { actor_id: actorId, actor_email: actorEmail } = entry.body;
        if (typeof actorId === 'number' && typeof actorEmail === 'string' && actorEmail.includes('@')) deps.actorEmailSeen?.(actorId, actorEmail);
        if (deleted.has(entry.uuid)) continue;
        const raw = Buffer.from(JSON.stringify(entry.body));
        const received = await receiveKisiEvent(
          {
            events,
            // Stored with the live event that announces it, as the webhook receiver does.
            inTransaction: deps.inTransaction,
            emailOfKisiUser: deps.emailOfKisiUser,
            onEmailMissing: deps.onEmailMissing,
            onLookupError: (err, uuid) => logger.warn({ err: err instanceof Error ? err.message : String(err), uuid }, 'could not resolve the actor email of a Kisi event'),
          },
          entry.body,
          raw,
          now().toISOString(),
        );
        if (received?.status === 'stored') stored++;
      }
      // Events stored earlier without an email: the emails just read fill them in.
      deps.onEmailMissing?.();
      await events.setCaughtUpTo(new Date(newest).toISOString());
      // No catch-up reads further back than the new mark's overlap again.
      await events.forgetDeletedBefore(new Date(newest - CATCH_UP_OVERLAP_MS).toISOString());
      return { status: 'done', since, read: log.length, stored };
    } finally {
      await events.releaseCatchUp(holder).catch((err: unknown) => logger.warn({ err }, 'kisi catch-up: could not release its lease'));
    }
  }

  let running: Promise<CatchUpResult> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopper = new AbortController();
  let failing = false;

  /** One catch-up (a call while one runs in this process joins it). Throws what went wrong. */
  const run = (): Promise<CatchUpResult> => (running ??= runOnce(stopper.signal).finally(() => (running = undefined)));

  /** A scheduled run: never throws; a failure is logged at warn once, until a run succeeds again. */
  async function runLogged(): Promise<void> {
    try {
      const result = await run();
      if (result.status === 'done' && (result.stored > 0 || failing)) logger.info({ since: result.since, read: result.read, stored: result.stored }, 'kisi catch-up: stored missed door events');
      failing = false;
    } catch (err) {
      if (stopper.signal.aborted) return;
      const detail = { err: err instanceof Error ? err.message : String(err) };
      if (failing) logger.debug(detail, 'kisi catch-up failed again');
      else logger.warn(detail, 'kisi catch-up failed; it is tried again at the next interval');
      failing = true;
    }
  }

  return {
    run,
    /** Runs once now (without waiting for it) and then every `intervalMs`, on a timer that keeps no process alive. */
    start(intervalMs: number = DEFAULT_CATCH_UP_INTERVAL_MS) {
      if (timer) return;
      stopper = new AbortController();
      void runLogged();
      timer = setInterval(() => void runLogged(), intervalMs);
      timer.unref();
    },
    /** Stops the timer and gives up a run under way (its events so far stay stored; the mark does not move). */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      stopper.abort();
      await running?.catch(() => {});
    },
  };
}
export type KisiEventsCatchUp = ReturnType<typeof kisiEventsCatchUp>;
