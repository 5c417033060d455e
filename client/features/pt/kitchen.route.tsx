import { useEffect, useState } from 'react';
import { data, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import * as v from 'valibot';
import { isIdText } from '@contracts/common.contract';
import { NEXT_TICKET_STATUS, OPEN_ORDER_STATUSES, OrderSchema, PREVIOUS_TICKET_STATUS, kitchenTicketOf, ptApi, type Kitchen, type KitchenTicket, type OrderStatus, type TicketStatus } from '@contracts/pt.contract';
import { AppLink } from '@/lib/app-link';
import { LiveConnectionBadge } from '@/components/live-connection';
import { AsyncButton } from '@/components/async-button';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { useToast } from '@/components/toast-host';
import { errorMessage, isApiError } from '@/lib/api-client';
import { invalidate, loadQuery, preloadQuery, setQueryData, useQuery } from '@/lib/cache';
import { playChime, wakeAudio } from '@/lib/chime-sound';
import { byInstant } from '@/lib/format';
import { useLiveEvents, useWhenLiveOpens } from '@/lib/live-events';
import { useNotify } from '@/lib/notify';
import { paths } from '@/lib/paths';
import { useStored } from '@/lib/stored-value';
import { useNow } from '@/lib/use-now';
import { TicketAge } from './components/order-ticket';
import { kitchenQueue, queueMove, queuedStatus, sendQueued, type QueuedMove } from './kitchen-queue';
import { kitchenSound } from './kitchen-sound';
import { fetchKitchen, kitchenKey, moveTicket } from './pt.api';

/** `/pt/kitchen/:stallId` (runners, staff, admins): one stall's tickets, for a tablet in landscape by the pass. */
export async function loader({ params }: LoaderFunctionArgs): Promise<{ stallId: number; kitchen: Kitchen }> {
  if (!isIdText(params.stallId)) throw data(`No stall with id ${params.stallId ?? ''}`, { status: 404, statusText: 'Not Found' });
  const stallId = Number(params.stallId);
  try {
    return { stallId, kitchen: await loadQuery(kitchenKey(stallId), fetchKitchen) };
  } catch (error) {
    if (isApiError(error, 404)) throw data(`No stall with id ${stallId}`, { status: 404, statusText: 'Not Found' });
    throw error;
  }
}

export const handle = {
  title: 'Kitchen',
  preload: ({ params }: { params: { stallId?: string } }) => {
    if (isIdText(params.stallId)) preloadQuery(kitchenKey(Number(params.stallId)), fetchKitchen);
  },
};

const AGE_TICK_MS = 20_000;
/** How long a new ticket stays marked (it flashes at first, unless the device asks for less motion). */
const FRESH_MS = 60_000;

const COLUMNS = [
  { status: 'received', title: 'New', empty: 'No new tickets.' },
  { status: 'preparing', title: 'Preparing', empty: 'Nothing on the stove.' },
  { status: 'ready', title: 'Ready', empty: 'Nothing waiting at the pass.' },
] as const;

const BUMP_WORDS: Record<TicketStatus, string | null> = { received: 'Start', preparing: 'Ready', ready: null };
const STEP_WORDS: Record<TicketStatus, string> = { received: 'new', preparing: 'preparing', ready: 'ready' };

const isOpen = (status: OrderStatus) => (OPEN_ORDER_STATUSES as readonly OrderStatus[]).includes(status);
const oldestFirst = (a: KitchenTicket, b: KitchenTicket) => byInstant(a.orderCreatedAt, b.orderCreatedAt) || a.orderId - b.orderId;

/** The screen with one ticket's news in it: added, moved, or gone (the order was served or cancelled). */
function mergeTicket(kitchen: Kitchen, ticket: KitchenTicket): Kitchen {
  const others = kitchen.tickets.filter((t) => t.orderId !== ticket.orderId);
  return { ...kitchen, tickets: isOpen(ticket.orderStatus) ? [...others, ticket].sort(oldestFirst) : others };
}

/** Whether the device is online: the browser's word for it, and our own when a request found no network. */
function useOnline(): [online: boolean, lost: (isLost: boolean) => void] {
  const [browserOnline, setBrowserOnline] = useState(() => navigator.onLine);
  const [lostConnection, setLost] = useState(false);
  useEffect(() => {
    const on = () => {
      setBrowserOnline(true);
      setLost(false);
    };
    const off = () => setBrowserOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return [browserOnline && !lostConnection, setLost];
}

export function Component() {
  const { stallId, kitchen: loaded } = useLoaderData<typeof loader>();
  const key = kitchenKey(stallId);
  const query = useQuery(key, fetchKitchen, loaded);
  const kitchen = query.data ?? loaded;
  const queue = useStored(kitchenQueue);
  const soundOn = useStored(kitchenSound);
  const [online, setLost] = useOnline();
  const now = useNow(AGE_TICK_MS);
  const toast = useToast();
  const [fresh, setFresh] = useState<ReadonlyMap<number, number>>(new Map());
  const [announcement, setAnnouncement] = useState('');
  const notify = useNotify();

  const apply = (ticket: KitchenTicket) => setQueryData(key, (current: Kitchen | undefined) => mergeTicket(current ?? kitchen, ticket));

  /** Sends what is queued, in order; once all went through after an outage, reads the screen again to catch up. */
  const sendAll = async () => {
    const outcome = await sendQueued(
      stallId,
      async (move: QueuedMove) => apply(await moveTicket({ params: { id: move.stallId, orderId: move.orderId }, body: { from: move.from, to: move.to } })),
      (move, error) =>
        toast.show({ tone: 'error', title: `Order ${move.orderId} was not moved`, message: `${errorMessage(error)}${isApiError(error, 409) ? ' The screen has been refreshed.' : ''}` }),
    );
    setLost(outcome === 'offline');
    return outcome;
  };

  useLiveEvents(['order'], (event) => {
    const parsed = v.safeParse(OrderSchema, event.data);
    if (!parsed.success) return;
    const ticket = kitchenTicketOf(parsed.output, stallId);
    if (!ticket) return;
    if (ticket.status === 'received' && isOpen(ticket.orderStatus) && !kitchen.tickets.some((t) => t.orderId === ticket.orderId)) {
      setFresh((map) => new Map(map).set(ticket.orderId, Date.now()));
      setAnnouncement(`New ticket: order ${ticket.orderId} for table ${ticket.table}.`);
      // The screen's own sound switch decides the chime; a notification follows the device's choice (tab hidden only).
      notify({ title: `New ticket: order ${ticket.orderId}`, body: `Table ${ticket.table}`, tag: `kitchen-${ticket.orderId}`, url: paths.ptKitchen(stallId) }, { sound: kitchenSound.read() });
    }
    apply(ticket);
  });

  // Back online (the browser says so, or the stream is open again): queued bumps go first, in
  // order, then the screen reads what it missed (the stream itself resumes from its last event).
  const catchUp = () =>
    void sendAll().then(async (outcome) => {
      if (outcome === 'sent') await invalidate(ptApi.kitchen, { params: { id: stallId } });
    });
  useWhenLiveOpens(catchUp);
  useEffect(() => {
    window.addEventListener('online', catchUp);
    return () => window.removeEventListener('online', catchUp);
  });

  useEffect(() => {
    setFresh((map) => {
      const kept = [...map].filter(([, at]) => now - at < FRESH_MS);
      return kept.length === map.size ? map : new Map(kept);
    });
  }, [now]);

  const move = async (ticket: KitchenTicket, from: TicketStatus, to: TicketStatus) => {
    queueMove({ stallId, orderId: ticket.orderId, from, to });
    // Said, not toasted: the ticket moving is what a cook sees, and toasts stacked by quick taps would cover the next tickets' buttons.
    if ((await sendAll()) === 'sent') setAnnouncement(`Order ${ticket.orderId} (table ${ticket.table}) is ${STEP_WORDS[to]}.`);
  };

  const toggleSound = () => {
    const next = !soundOn;
    kitchenSound.write(next);
    // Turned on with a tap: the browser lets the page play from now on, and the cook hears what it sounds like.
    if (next) {
      wakeAudio();
      playChime();
    }
  };

  const shown = kitchen.tickets.map((t) => ({ ...t, status: queuedStatus(t, queue, stallId), queued: queue.some((m) => m.stallId === stallId && m.orderId === t.orderId) }));

  return (
    <div className="kitchen stack">
      <header className="kitchen-head">
        <div>
          <p className="eyebrow">
            <AppLink to={paths.ptKitchens}>Kitchens</AppLink>
          </p>
          <h1>{kitchen.stall.name}</h1>
        </div>
        <div className="kitchen-tools">
          <button type="button" className="btn" aria-pressed={soundOn} onClick={toggleSound}>
            <Icon name="chime" /> Sound {soundOn ? 'on' : 'off'}
          </button>
          <LiveConnectionBadge label="Live tickets" />
        </div>
      </header>

      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>

      {!online ? (
        <p className="banner banner-warning kitchen-offline" role="alert">
          Offline — bumps are queued and will be sent when the connection is back.
          {queue.some((m) => m.stallId === stallId) ? ` ${queue.filter((m) => m.stallId === stallId).length} waiting.` : ''}
        </p>
      ) : null}
      {query.error && online ? (
        <LoadError onRetry={() => void query.mutate()} retrying={query.isValidating}>
          Could not refresh the tickets: {errorMessage(query.error)}
        </LoadError>
      ) : null}

      <div className="kitchen-columns">
        {COLUMNS.map((column) => {
          const tickets = shown.filter((t) => t.status === column.status);
          const headingId = `kitchen-${column.status}`;
          return (
            <section key={column.status} className={`kitchen-column column-${column.status}`} aria-labelledby={headingId}>
              <h2 id={headingId} className="kitchen-column-title">
                {column.title} <span className="board-count tabular">{tickets.length}</span>
              </h2>
              {tickets.length ? (
                <ul className="kitchen-tickets" aria-label={`${column.title} tickets`}>
                  {tickets.map((ticket) => {
                    const next = NEXT_TICKET_STATUS[ticket.status];
                    const back = PREVIOUS_TICKET_STATUS[ticket.status];
                    return (
                      <li key={ticket.orderId}>
                        <article className={`kitchen-ticket ticket-${ticket.status}${fresh.has(ticket.orderId) ? ' kitchen-fresh' : ''}`} aria-labelledby={`kt-${ticket.orderId}`}>
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
                      </li>
                    );
                  })}
                </ul>
              ) : (
                <p className="muted board-empty">{column.empty}</p>
              )}
            </section>
          );
        })}
      </div>
    </div>
  );
}
