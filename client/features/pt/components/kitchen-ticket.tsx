import { NEXT_TICKET_STATUS, PREVIOUS_TICKET_STATUS, linesReady, type KitchenTicket, type OrderLine, type TicketStatus } from '@contracts/pt.contract';
import { AsyncButton } from '@/components/async-button';
import { Icon } from '@/components/icon';
import { TicketAge } from './order-ticket';

const BUMP_WORDS: Record<TicketStatus, string | null> = { received: 'Start', preparing: 'Ready', ready: null };
/** A step as the kitchen says it. */
export const STEP_WORDS: Record<TicketStatus, string> = { received: 'new', preparing: 'preparing', ready: 'ready' };

/**
 * One dish of a ticket: a tap marks it ready (or, tapped again, not ready after all); the diner's
 * note and the allergens the dish had when ordered stand out under it.
 */
function KitchenLine({ line, orderId, tap }: { line: OrderLine; orderId: number; tap: (line: OrderLine, ready: boolean) => void }) {
  const ready = line.readyAt !== null;
  return (
    <li className={`kitchen-line${ready ? ' kitchen-line-ready' : ''}`}>
      {/* Pressed: ready. Named "Laksa (order 4) ready", never containing the whole-ticket bump's "Ready (order 4)"; the note and allergens are read after it. */}
      <button type="button" className="kitchen-line-toggle" aria-pressed={ready} aria-label={`${line.name} (order ${orderId}) ready`} onClick={() => tap(line, !ready)}>
        <span className="kitchen-line-check" aria-hidden="true">
          {ready ? <Icon name="check" size={18} /> : null}
        </span>
        <span className="ticket-qty tabular">{line.quantity} ×</span>
        <span className="kitchen-line-name">{line.name}</span>
      </button>
      {line.note || line.allergens.length ? (
        <div className="kitchen-line-extra">
          {line.allergens.length ? (
            <p className="kitchen-allergens">
              <Icon name="alert" size={16} /> Allergens: {line.allergens.join(', ')}
            </p>
          ) : null}
          {line.note ? <p className="kitchen-note">Note: {line.note}</p> : null}
        </div>
      ) : null}
    </li>
  );
}

/**
 * One ticket on a kitchen screen: this stall's lines of an order (each tapped ready as it is done),
 * its age, how many dishes are ready, a bump of the whole ticket to the next step and an undo one
 * step back. `queued`: a bump or tap of it waits to be sent (the screen shows it as it will be).
 */
export function KitchenTicketCard({
  ticket,
  now,
  fresh,
  move,
  tapLine,
}: {
  ticket: KitchenTicket & { queued: boolean };
  now: number;
  fresh: boolean;
  move: (ticket: KitchenTicket, from: TicketStatus, to: TicketStatus) => Promise<void>;
  tapLine: (ticket: KitchenTicket, line: OrderLine, ready: boolean) => Promise<void>;
}) {
  const next = NEXT_TICKET_STATUS[ticket.status];
  const back = PREVIOUS_TICKET_STATUS[ticket.status];
  const progress = linesReady(ticket.lines);
  return (
    <article className={`kitchen-ticket ticket-${ticket.status}${fresh ? ' kitchen-fresh' : ''}`} aria-labelledby={`kt-${ticket.orderId}`}>
      <header className="ticket-head">
        <h3 id={`kt-${ticket.orderId}`} className="kitchen-ticket-title">
          Table {ticket.table}
          <span className="ticket-number"> · Order {ticket.orderId}</span>
        </h3>
        <TicketAge createdAt={ticket.orderCreatedAt} now={now} />
      </header>
      {ticket.queued ? <span className="badge badge-warn">Waiting to send</span> : null}
      {progress.of > 1 ? (
        <p className={`kitchen-progress tabular${progress.ready === progress.of ? ' kitchen-progress-done' : ''}`}>
          {progress.ready} of {progress.of} ready
        </p>
      ) : null}
      <ul className="kitchen-lines" aria-label={`Dishes of order ${ticket.orderId}, tap each when it is ready`}>
        {ticket.lines.map((line) => (
          <KitchenLine key={line.id} line={line} orderId={ticket.orderId} tap={(l, ready) => void tapLine(ticket, l, ready)} />
        ))}
      </ul>
      <div className="ticket-actions">
        {next && BUMP_WORDS[ticket.status] ? (
          <AsyncButton className="btn btn-primary kitchen-bump" run={() => move(ticket, ticket.status, next)} pendingLabel="Sending…">
            {BUMP_WORDS[ticket.status]}
            <span className="visually-hidden"> (order {ticket.orderId})</span>
          </AsyncButton>
        ) : null}
        {back ? (
          <AsyncButton className="btn" run={() => move(ticket, ticket.status, back)} pendingLabel="Sending…">
            <Icon name="undo" size={18} /> Undo<span className="visually-hidden"> (order {ticket.orderId}, back to {STEP_WORDS[back]})</span>
          </AsyncButton>
        ) : null}
      </div>
    </article>
  );
}
