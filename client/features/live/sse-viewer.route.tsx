import './live.css';
import { useState } from 'react';
import { LIVE_EVENT_TYPES, type LiveEvent } from '@contracts/events.contract';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { JsonView } from '@/components/json-view';
import { LiveStatusBadge } from '@/components/live-status';
import { PageHeader } from '@/components/page-header';
import { formatWhenExact } from '@/lib/format';
import { EVENTS_URL, useLiveConnection, useLiveEvents } from '@/lib/live-events';

export const handle = { title: 'Live stream' };

/** The viewer keeps the latest events only, so an open tab does not grow without end. */
export const MAX_SHOWN = 200;

type Received = LiveEvent & { seq: number; receivedAt: string };

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** One line for an event: who did what where, for the kinds we know; the JSON has the rest. */
export function summarize(event: LiveEvent): string {
  const data = (event.data && typeof event.data === 'object' ? event.data : {}) as Record<string, unknown>;
  if (event.type === 'webhook') {
    const who = text(data.actorName) ?? text(data.actorEmail) ?? 'Someone';
    const door = text(data.objectName) ?? 'a door';
    const type = text(data.type) ?? 'event';
    if (type === 'lock.unlock') return data.success === false ? `${who} was refused at ${door}: ${text(data.errorMessage) ?? text(data.errorCode) ?? 'no reason given'}` : `${who} unlocked ${door}`;
    return `${type} by ${who}${text(data.objectName) ? ` on ${door}` : ''}`;
  }
  if (event.type === 'order') return `Order ${data.id ?? ''}${data.table !== undefined ? ` for table ${String(data.table)}` : ''}${text(data.status) ? ` (${String(data.status)})` : ''}`.trim();
  return `${event.type} event`;
}

let seq = 0;

export function Component() {
  const [shown, setShown] = useState<Received[]>([]);
  const [waiting, setWaiting] = useState<Received[]>([]);
  const [paused, setPaused] = useState(false);
  const [received, setReceived] = useState(0);

  // Every kind: this page shows the raw stream.
  useLiveEvents(LIVE_EVENT_TYPES, (event) => {
    const item: Received = { ...event, seq: ++seq, receivedAt: new Date().toISOString() };
    setReceived((n) => n + 1);
    if (paused) setWaiting((list) => [...list, item]);
    else setShown((list) => [item, ...list].slice(0, MAX_SHOWN));
  });

  // The page shows the connection's every field and its controls.
  const live = useLiveConnection();

  const resume = () => {
    setShown((list) => [...[...waiting].reverse(), ...list].slice(0, MAX_SHOWN));
    setWaiting([]);
    setPaused(false);
  };
  const clear = () => {
    setShown([]);
    setWaiting([]);
  };
  const connected = live.state !== 'closed';

  return (
    <div className="stack-lg live">
      <PageHeader eyebrow="Server-Sent Events" title="Live stream">
        <p>
          What <code>{EVENTS_URL}</code> sends to this browser as it happens: door events from Kisi and food-court orders.
        </p>
      </PageHeader>

      <section className="card live-panel" aria-label="Connection">
        <dl className="live-facts">
          <div>
            <dt>Connection</dt>
            <dd>
              <LiveStatusBadge state={live.state} label="Connection" />
            </dd>
          </div>
          <div>
            <dt>Reconnects</dt>
            <dd className="tabular" data-testid="reconnects">
              {live.reconnects}
            </dd>
          </div>
          <div>
            <dt>Last event id</dt>
            <dd className="tabular" data-testid="last-event-id">
              {live.lastEventId ?? '—'}
            </dd>
          </div>
          <div>
            <dt>Received</dt>
            <dd className="tabular">{received}</dd>
          </div>
        </dl>
        <div className="live-controls" role="group" aria-label="Stream controls">
          {paused ? (
            <button type="button" className="btn btn-primary" onClick={resume}>
              <Icon name="play" size={18} /> Resume
            </button>
          ) : (
            <button type="button" className="btn" onClick={() => setPaused(true)}>
              <Icon name="pause" size={18} /> Pause
            </button>
          )}
          {/* aria-disabled when there is nothing to clear: a disabled button would drop the focus that just cleared. */}
          <button type="button" className="btn" onClick={clear} aria-disabled={(shown.length === 0 && waiting.length === 0) || undefined}>
            <Icon name="trash" size={18} /> Clear
          </button>
          {connected ? (
            <button type="button" className="btn" onClick={live.disconnect}>
              <Icon name="close" size={18} /> Disconnect
            </button>
          ) : (
            <button type="button" className="btn btn-primary" onClick={live.connect}>
              <Icon name="refresh" size={18} /> Connect
            </button>
          )}
        </div>
        <p className="live-waiting" aria-live="polite">
          {paused ? `Paused: ${waiting.length} ${waiting.length === 1 ? 'event' : 'events'} waiting.` : ''}
        </p>
        {live.error ? (
          <div className="banner banner-warning" role="status">
            {live.error}
          </div>
        ) : null}
      </section>

      {shown.length === 0 ? (
        <section className="card">
          <EmptyState icon="activity" title={connected ? 'Waiting for events' : 'Not connected'}>
            {connected
              ? 'Nothing has arrived since you opened this page. Unlock a door (or let someone) and it shows here at once.'
              : live.lastEventId
                ? `Connect again to catch up from event ${live.lastEventId}.`
                : 'Connect to start receiving events.'}
          </EmptyState>
        </section>
      ) : (
        <>
          <ol className="live-list" role="log" aria-label="Events">
            {shown.map((event) => (
              <li key={event.seq} className="live-item">
                <div className="live-item-head">
                  <span className={`badge ${event.type === 'webhook' ? 'badge-accent' : 'badge-muted'}`}>{event.type}</span>
                  <span className="tabular muted small">#{event.id || '—'}</span>
                  <time className="muted small" dateTime={event.receivedAt}>
                    {formatWhenExact(event.receivedAt)}
                  </time>
                </div>
                <p className="live-summary">{summarize(event)}</p>
                <JsonView value={event.data} summary="Data" open={false} />
              </li>
            ))}
          </ol>
          {shown.length === MAX_SHOWN ? <p className="muted small">Showing the latest {MAX_SHOWN} events.</p> : null}
        </>
      )}
    </div>
  );
}
