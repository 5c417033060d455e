import { NEXT_TICKET_STATUS, PREVIOUS_TICKET_STATUS, type KitchenTicket, type TicketStatus } from '@contracts/pt.contract';
import { AsyncButton } from '@/components/async-button';
import { Icon } from '@/components/icon';
import { TicketAge } from './order-ticket';

const BUMP_WORDS: Record<TicketStatus, string | null> = { received: 'Start', preparing: 'Ready', ready: null };
/** A step as the kitchen says it. */
export const STEP_WORDS: Record<TicketStatus, string> = { received: 'new', preparing: 'preparing', ready: 'ready' };

/**
 * One ticket on a kitchen screen: this stall's lines of an order, its age, a bump to the next step and
 * an undo one step back. `queued`: a bump of it waits to be sent (the screen shows the step it goes to).
 */
export function KitchenTicketCard({
  ticket,
  now,
  fresh,
  move,
}: {
  ticket: KitchenTicket & { queued: boolean };
  now: number;
  fresh: boolean;
  move: (ticket: KitchenTicket, from: TicketStatus, to: TicketStatus) => Promise<void>;
}) {
  const next = NEXT_TICKET_STATUS[ticket.status];
  const back = PREVIOUS_TICKET_STATUS[ticket.status];
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
      <ul className="kitchen-lines">
        {ticket.lines.map((line) => (
          <li key={line.id}>
            <span className="ticket-qty tabular">{line.quantity} ×</span>
            <span>
              {line.name}
              {line.note ? <span className="ticket-note">Note: {line.note}</span> : null}
            </span>
          </li>
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
