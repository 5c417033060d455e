import { useEffect, useState } from 'react';
import { data, useLoaderData, useParams, type LoaderFunctionArgs } from 'react-router';
import { kitchenTicketOf, type Kitchen, type KitchenTicket, type OrderLine, type TicketStatus } from '@contracts/pt.contract';
import { kitchenRead, kitchenReads } from '@pages/pt.reads';
import { AppLink } from '@/lib/app-link';
import { LiveConnectionBadge } from '@/components/live-connection';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { useToast } from '@/components/toast-host';
import { errorMessage, isApiError } from '@/lib/api-client';
import { playChime, wakeAudio } from '@/lib/chime-sound';
import { byInstant } from '@/lib/format';
import { useWhenLiveOpens } from '@/lib/live-events';
import { useLiveList } from '@/lib/live-list';
import { useNotify } from '@/lib/notify';
import { paths } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';
import { useStored } from '@/lib/stored-value';
import { useNow } from '@/lib/use-now';
import { KitchenDishes } from './components/kitchen-dishes';
import { KitchenTicketCard, STEP_WORDS } from './components/kitchen-ticket';
import { isLineMove, kitchenQueue, queueMove, queuedTicket, sendQueued, useOnline, type QueuedMove } from './kitchen-queue';
import { kitchenSound } from './kitchen-sound';
import { AGE_TICK_MS, isOpen, orderOf, useFreshMarks } from './live-orders';
import { moveLine, moveTicket } from './pt.api';

const reads = routeReads(kitchenReads);
const noStall = (stallId = '') => data(`No stall with id ${stallId}`, { status: 404, statusText: 'Not Found' });

/** `/pt/kitchen/:stallId` (runners, staff, admins): one stall's tickets, for a tablet in landscape at the stall's counter. */
export async function loader(args: LoaderFunctionArgs): Promise<{ kitchen: Kitchen }> {
  const { stallId } = args.params;
  const { kitchen } = await reads.loader(args).catch((error: unknown) => {
    throw isApiError(error, 404) ? noStall(stallId) : error;
  });
  if (!kitchen) throw noStall(stallId);
  return { kitchen };
}

export const handle = { title: 'Kitchen', ...reads.handle };

const COLUMNS = [
  { status: 'received', title: 'New', empty: 'No new tickets.' },
  { status: 'preparing', title: 'Preparing', empty: 'Nothing on the stove.' },
  { status: 'ready', title: 'Ready', empty: 'Nothing waiting to be picked up.' },
] as const;

const oldestFirst = (a: KitchenTicket, b: KitchenTicket) => byInstant(a.orderCreatedAt, b.orderCreatedAt) || a.orderId - b.orderId;

/** The screen with one ticket's news in it: added, moved, or gone (the order was served or cancelled). */
function mergeTicket(kitchen: Kitchen, ticket: KitchenTicket): { list: Kitchen } {
  const others = kitchen.tickets.filter((t) => t.orderId !== ticket.orderId);
  return { list: { ...kitchen, tickets: isOpen(ticket.orderStatus) ? [...others, ticket].sort(oldestFirst) : others } };
}

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const stallId = Number(useParams().stallId);
  const queue = useStored(kitchenQueue);
  const soundOn = useStored(kitchenSound);
  const [online, setLost] = useOnline();
  const now = useNow(AGE_TICK_MS);
  const fresh = useFreshMarks(now);
  const toast = useToast();
  const [announcement, setAnnouncement] = useState('');
  const notify = useNotify();

  /** A new ticket (not one the screen has, which a resume can replay): flashed, said, chimed if the screen's sound is on. */
  const announce = (ticket: KitchenTicket, screen: Kitchen) => {
    if (ticket.status !== 'received' || !isOpen(ticket.orderStatus) || screen.tickets.some((t) => t.orderId === ticket.orderId)) return;
    fresh.mark(ticket.orderId);
    setAnnouncement(`New ticket: order ${ticket.orderId} for table ${ticket.table}.`);
    // The screen's own sound switch decides the chime; a notification follows the device's choice (tab hidden only).
    notify({ title: `New ticket: order ${ticket.orderId}`, body: `Table ${ticket.table}`, tag: `kitchen-${ticket.orderId}`, url: paths.ptKitchen(stallId) }, { sound: kitchenSound.read() });
  };
  // This stall's part of each order.
  const screen = useLiveList(kitchenRead(stallId), loaded.kitchen, {
    events: ['order'],
    news: (event) => {
      const order = orderOf(event);
      return order && kitchenTicketOf(order, stallId);
    },
    merge: mergeTicket,
    onNews: announce,
  });
  const kitchen = screen.data;

  /** Sends what is queued, in order; each answer is shown at once. */
  const sendAll = async () => {
    const outcome = await sendQueued(
      stallId,
      async (move: QueuedMove) =>
        screen.take(
          await (isLineMove(move)
            ? moveLine({ params: { id: move.stallId, orderId: move.orderId, lineId: move.lineId }, body: { ready: move.ready } })
            : moveTicket({ params: { id: move.stallId, orderId: move.orderId }, body: { from: move.from, to: move.to } })),
        ),
      (move, error) =>
        toast.show({
          tone: 'error',
          title: isLineMove(move) ? `A dish of order ${move.orderId} was not marked` : `Order ${move.orderId} was not moved`,
          message: `${errorMessage(error)}${isApiError(error, 409) ? ' The screen has been refreshed.' : ''}`,
        }),
    );
    setLost(outcome === 'offline');
    return outcome;
  };

  // Back online, queued bumps go first, in order, then the screen reads what it missed (when the
  // stream opens again the list reads itself; a bump's answer meanwhile asks it once more).
  const catchUp = () =>
    void sendAll().then((outcome) => {
      if (outcome === 'sent') screen.readAgain();
    });
  useWhenLiveOpens(() => void sendAll());
  useEffect(() => {
    window.addEventListener('online', catchUp);
    return () => window.removeEventListener('online', catchUp);
  });

  const move = async (ticket: KitchenTicket, from: TicketStatus, to: TicketStatus) => {
    queueMove({ stallId, orderId: ticket.orderId, from, to });
    // Said, not toasted: the ticket moving is what a cook sees, and toasts stacked by quick taps would cover the next tickets' buttons.
    if ((await sendAll()) === 'sent') setAnnouncement(`Order ${ticket.orderId} (table ${ticket.table}) is ${STEP_WORDS[to]}.`);
  };

  const tapLine = async (ticket: KitchenTicket, line: OrderLine, ready: boolean) => {
    queueMove({ stallId, orderId: ticket.orderId, lineId: line.id, ready });
    if ((await sendAll()) === 'sent') setAnnouncement(`${line.name} of order ${ticket.orderId} is ${ready ? 'ready' : 'not ready'}.`);
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

  const shown = kitchen.tickets.map((t) => queuedTicket(t, queue, stallId));

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
          <LiveConnectionBadge label="Live tickets" offline={!online} />
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
      {screen.error && online ? (
        <LoadError onRetry={screen.readAgain} retrying={screen.isValidating}>
          Could not refresh the tickets: {errorMessage(screen.error)}
        </LoadError>
      ) : null}

      <KitchenDishes stallId={stallId} />

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
                  {tickets.map((ticket) => (
                    <li key={ticket.orderId}>
                      <KitchenTicketCard ticket={ticket} now={now} fresh={fresh.has(ticket.orderId)} move={move} tapLine={tapLine} />
                    </li>
                  ))}
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
