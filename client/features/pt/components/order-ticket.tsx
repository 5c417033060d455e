import { NEXT_ORDER_STATUS, PREVIOUS_ORDER_STATUS, linesReady, type Order, type OrderStatus } from '@contracts/pt.contract';
import { AsyncButton } from '@/components/async-button';
import { ConfirmDelete } from '@/components/confirm-delete';
import { Icon } from '@/components/icon';
import { byInstant, formatWhen } from '@/lib/format';
import { BUMP_LABELS, STATUS_LABELS, ageMinutes, ageTone, formatAge } from '@/features/pt/pt-format';

const TONE_WORDS = { fresh: '', waiting: 'waiting', late: 'late' } as const;

/** A ticket's age, coloured green → amber (5 min) → red (10 min); the colour is also said in words. */
export function TicketAge({ createdAt, now }: { createdAt: string; now: number }) {
  const minutes = ageMinutes(createdAt, now);
  const tone = ageTone(minutes);
  return (
    <span className={`ticket-age age-${tone}`}>
      <Icon name="clock" size={14} />
      <span className="visually-hidden">Waiting for </span>
      {formatAge(minutes)}
      {TONE_WORDS[tone] ? <span className="ticket-age-word"> · {TONE_WORDS[tone]}</span> : null}
    </span>
  );
}

/**
 * One open order on the runner board: table, lines with notes, age; bump to the next step, undo
 * one step back, cancel (after a confirmation). `move` reports its own outcome.
 */
export function OrderTicket({ order, now, fresh, move, onCancel }: { order: Order; now: number; fresh: boolean; move: (order: Order, to: OrderStatus) => Promise<void>; onCancel: (order: Order) => void }) {
  const next = NEXT_ORDER_STATUS[order.status];
  const previous = PREVIOUS_ORDER_STATUS[order.status];
  const headingId = `ticket-${order.id}`;
  const progress = linesReady(order.lines);
  const ofStall = (stallId: number) => linesReady(order.lines.filter((line) => line.stallId === stallId));
  return (
    <article className={`ticket ticket-${order.status}${fresh ? ' ticket-fresh' : ''}`} aria-labelledby={headingId}>
      <header className="ticket-head">
        <h3 id={headingId} className="ticket-table">
          Table {order.table}
          <span className="ticket-number"> · Order {order.id}</span>
        </h3>
        <TicketAge createdAt={order.createdAt} now={now} />
      </header>
      {fresh ? <span className="badge badge-accent ticket-new">New</span> : null}
      <ul className="ticket-lines">
        {order.lines.map((line) => (
          <li key={line.id} className={line.readyAt ? 'ticket-line-ready' : undefined}>
            <span className="ticket-qty tabular">{line.quantity} ×</span>
            <span>
              {line.name} <span className="muted small">{line.stallName}</span>
              {line.readyAt ? (
                <>
                  {' '}
                  <span className="ticket-line-done">
                    <Icon name="check" size={14} />
                    ready
                  </span>
                </>
              ) : null}
              {line.note ? <span className="ticket-note">Note: {line.note}</span> : null}
            </span>
          </li>
        ))}
      </ul>
      {order.status === 'preparing' && progress.of > 1 ? (
        <p className="ticket-progress tabular">
          {progress.ready} of {progress.of} ready
        </p>
      ) : null}
      {order.tickets.length > 1 ? (
        <ul className="ticket-stalls" aria-label={`Stalls of order ${order.id}`}>
          {order.tickets.map((t) => (
            <li key={t.stallId} className={`stall-chip${t.status === 'ready' ? ' stall-chip-done' : ''}`}>
              {t.stallName} · {t.status === 'ready' ? '✓ Ready' : ofStall(t.stallId).ready > 0 ? `${ofStall(t.stallId).ready} of ${ofStall(t.stallId).of} ready` : STATUS_LABELS[t.status]}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="ticket-actions">
        {next && BUMP_LABELS[order.status] ? (
          <AsyncButton className="btn btn-small btn-primary" run={() => move(order, next)} pendingLabel="Moving…">
            {BUMP_LABELS[order.status]}<span className="visually-hidden"> (order {order.id})</span>
          </AsyncButton>
        ) : null}
        {previous ? (
          <AsyncButton run={() => move(order, previous)} pendingLabel="Moving…">
            <Icon name="undo" size={16} /> Undo<span className="visually-hidden"> (order {order.id}, back to {STATUS_LABELS[previous]})</span>
          </AsyncButton>
        ) : null}
        <button type="button" className="btn btn-small danger-hover" onClick={() => onCancel(order)}>
          Cancel<span className="visually-hidden"> order {order.id}</span>
        </button>
      </div>
    </article>
  );
}

/** "Cancel order 41?": the runner confirms; a refusal stays in the dialog. */
export function ConfirmCancelOrder({ order, cancel, onClose }: { order: Order; cancel: () => Promise<void>; onClose: () => void }) {
  const count = order.lines.reduce((sum, line) => sum + line.quantity, 0);
  return (
    <ConfirmDelete
      confirmLabel="Cancel order"
      pendingLabel="Cancelling…"
      cancelLabel="Keep order"
      onCancel={onClose}
      onConfirm={async () => {
        await cancel();
        onClose();
      }}
    >
      <p>
        Order {order.id} for table {order.table} ({count} {count === 1 ? 'dish' : 'dishes'}) leaves the board, and the diner sees it as cancelled. An undo brings it back as received.
      </p>
    </ConfirmDelete>
  );
}

/** The orders served or cancelled last, newest first, each with its undo. */
export function RecentOrders({ orders, move }: { orders: Order[]; move: (order: Order, to: OrderStatus) => Promise<void> }) {
  const recent = [...orders].sort((a, b) => byInstant(b.updatedAt, a.updatedAt));
  return (
    <section className="card stack" aria-labelledby="recent-title">
      <h2 id="recent-title" className="card-heading">
        <Icon name="undo" /> Served and cancelled recently
      </h2>
      {recent.length === 0 ? (
        <p className="muted">Orders you mark served or cancel appear here for a while, to undo a slip.</p>
      ) : (
        <ul className="recent-orders" aria-label="Served and cancelled recently">
          {recent.map((order) => {
            const back = PREVIOUS_ORDER_STATUS[order.status];
            return (
              <li key={order.id} className="recent-order">
                <span>
                  <strong>Table {order.table}</strong> · Order {order.id}{' '}
                  <span className={`badge ${order.status === 'served' ? 'badge-ok' : 'badge-bad'}`}>{STATUS_LABELS[order.status]}</span>
                </span>
                <span className="muted small">{formatWhen(order.updatedAt)}</span>
                {back ? (
                  <AsyncButton run={() => move(order, back)} pendingLabel="Moving…">
                    <Icon name="undo" size={16} /> Undo<span className="visually-hidden"> (order {order.id}, back to {STATUS_LABELS[back]})</span>
                  </AsyncButton>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
