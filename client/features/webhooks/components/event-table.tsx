import type { Ref } from 'react';
import type { KisiEvent } from '@contracts/webhook.contract';
import { DeleteButton } from '@/components/confirm-delete';
import { formatWhenExact } from '@/lib/format';
import { RESULT_LABELS, eventTypeLabel } from '../webhooks.api';

/** The refusal in words: Kisi's message, else its code. */
export const refusal = (event: KisiEvent) => event.errorMessage ?? (event.errorCode ? `Kisi error ${event.errorCode}` : 'Refused');

/** One row per received Kisi event; where the table has too little room each row becomes a small card (see webhooks.css). */
export function EventTable({
  events,
  fresh,
  busy,
  onDelete,
  tableRef,
}: {
  events: KisiEvent[];
  fresh: ReadonlySet<number>;
  busy: boolean;
  onDelete: (event: KisiEvent) => void;
  /** The table takes focus when the page moves it there (after loading new events). */
  tableRef?: Ref<HTMLTableElement>;
}) {
  return (
    <div className="event-table-box">
      <div className="event-table-wrap">
        <table ref={tableRef} className="event-table" aria-busy={busy} tabIndex={-1}>
          <caption className="visually-hidden">Received Kisi events, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Who</th>
              <th scope="col">Door</th>
              <th scope="col">Result</th>
              <th scope="col">Time</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.id} className={fresh.has(event.id) ? 'event-fresh' : undefined}>
                <td data-label="Event">
                  <div>
                    <EventType type={event.type} />
                    {fresh.has(event.id) ? <span className="badge badge-accent event-new-tag">New</span> : null}
                  </div>
                </td>
                <td data-label="Who">
                  <Who event={event} />
                </td>
                <td data-label="Door">{event.objectName ?? (event.objectId ? `${event.objectType ?? 'Object'} #${event.objectId}` : '—')}</td>
                <td data-label="Result">
                  {event.success ? (
                    <span className="badge badge-ok">{RESULT_LABELS.granted}</span>
                  ) : (
                    <span className="event-failed">
                      <span className="badge badge-bad">{RESULT_LABELS.denied}</span>
                      <span className="event-sub">{refusal(event)}</span>
                    </span>
                  )}
                </td>
                <td data-label="Time">
                  <time dateTime={event.createdAt}>{formatWhenExact(event.createdAt)}</time>
                </td>
                <td className="event-actions">
                  <DeleteButton label={`Delete event ${event.id} (${event.type}, ${event.requestedBy?.name ?? event.actorName ?? 'unknown person'})`} onClick={() => onDelete(event)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * Who did it: the person Kisi names, or for a remote unlock pressed in Frontdesk the account that
 * pressed it, said as done through the integration Kisi names (its actor).
 */
function Who({ event }: { event: KisiEvent }) {
  const { requestedBy } = event;
  if (!requestedBy) {
    return (
      <div>
        <span className="event-who">{event.actorName ?? 'Unknown person'}</span>
        <span className="event-sub">{event.actorEmail ?? 'no email'}</span>
      </div>
    );
  }
  return (
    <div>
      <span className="event-who">{requestedBy.name}</span>
      {requestedBy.email ? <span className="event-sub">{requestedBy.email}</span> : null}
      <span className="event-sub">{remoteUnlockVia(event)}</span>
    </div>
  );
}

/** "Remote unlock via Frontdesk Integration": how a credited remote unlock reached the door. */
export const remoteUnlockVia = (event: KisiEvent) => `${event.success ? 'Remote unlock' : 'Remote unlock tried'} via ${event.actorName ?? 'the Kisi integration'}`;

/** An event's type in words where it has some ("Unlock"), else as Kisi spells it, set as code. */
function EventType({ type }: { type: string }) {
  const label = eventTypeLabel(type);
  return label === type ? <code className="event-type">{type}</code> : <span className="event-type">{label}</span>;
}
