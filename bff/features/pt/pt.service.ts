import crypto from 'node:crypto';
import type { Page } from '../../contracts/common.contract';
import {
  canMoveOrder,
  kitchenTicketOf,
  orderStatusOfTickets,
  type CreateMenuItem,
  type Kitchen,
  type KitchenTicket,
  type MoveLine,
  type MoveTicket,
  type OrderTicket,
  type TicketStatus,
  type CreateStall,
  type Menu,
  type MenuChange,
  type MenuItem,
  type Order,
  type OrderListQuery,
  type OrderStatus,
  type PlacedOrder,
  type PlaceOrder,
  type Stall,
  type StallListQuery,
  type StallWithItems,
  type UpdateMenuItem,
  type UpdateStall,
  OPEN_ORDER_STATUSES,
} from '../../contracts/pt.contract';
import type { ProblemFieldError } from '../../contracts/problem.contract';
import { opensWords } from '../../contracts/stall-hours.contract';
import { isUniqueViolation } from '../../db/engine';
import { changesOf, type Audit, type AuditActor } from '../../db/audit-trail';
import type { InTransaction } from '../../lib/event-bus';
import { badRequest, conflict, HttpError, notFound } from '../../lib/http-error';
import { NO_COUNTERS, type Counters } from '../../lib/metrics';
import type { FiguresRepository } from './figures.repository';
import { publicOrder, type NewOrder, type OrdersRepository, type StoredOrder } from './orders.repository';
import { stallAvailability } from './opening-hours';
import type { StallsRepository } from './stalls.repository';
import { orderWait, waitEstimate, WAIT_WINDOW_MINUTES } from './wait-estimate';

/** A write of the food court: the repositories in one transaction, and the live event that announces an order in it. */
export interface PtWrite {
  stalls: StallsRepository;
  orders: OrdersRepository;
  /** The reports' figures by venue hour, kept in this transaction. */
  figures: FiguresRepository;
  /** Announces an order (new or changed) on the live event stream, once this write commits. */
  announce: (order: Order) => void;
  /** Announces a change to what diners can order (a `menu` event), once this write commits. */
  announceMenu: (change: MenuChange) => void;
  /** Records a stall or menu change in the audit trail, in this transaction. */
  audit: Audit;
}

export interface PtServiceDeps {
  stalls: StallsRepository;
  orders: OrdersRepository;
  inTransaction: InTransaction<PtWrite>;
  /** `timeZone`: the venue's, which stalls' opening hours are in. */
  venue: { tables: number; currency: string; timeZone: string };
  /** Counts an order once it is stored (the metrics' orders per minute). */
  counted?: Pick<Counters, 'orderPlaced'>;
  now?: () => string;
}

const STALL_FIELDS = ['name', 'description', 'cuisine', 'status', 'hours'] as const;
/** The menu lists the stalls taking orders first, then those closed by their hours, then the paused. */
const MENU_ORDER = { open: 0, closed: 1, paused: 2 } as const;
const ITEM_FIELDS = ['name', 'description', 'category', 'priceCents', 'soldOut', 'allergens'] as const;
const itemLabel = (item: Pick<MenuItem, 'name' | 'stallId'>, stall: Pick<Stall, 'name'> | undefined) => `${item.name} (${stall?.name ?? `stall ${item.stallId}`})`;

const isOpenStatus = (status: OrderStatus) => (OPEN_ORDER_STATUSES as readonly OrderStatus[]).includes(status);

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const sameToken = (a: string, b: string) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function ptService({ stalls, orders, inTransaction, venue, counted = NO_COUNTERS, now = () => new Date().toISOString() }: PtServiceDeps) {
  const stallOr404 = async (id: number) => (await stalls.find(id)) ?? Promise.reject(notFound(`No stall with id ${id}.`));
  const orderOr404 = async (id: number) => (await orders.find(id)) ?? Promise.reject(notFound(`No order with id ${id}.`));

  /** The lines of a cart that cannot be ordered at `at`, each named by its place in the cart. */
  function unorderableLines(cart: PlaceOrder['cart'], items: Awaited<ReturnType<StallsRepository['itemsForOrder']>>, at: string): ProblemFieldError[] {
    const byId = new Map(items.map((item) => [item.id, item]));
    return cart.flatMap((line, i): ProblemFieldError[] => {
      const item = byId.get(line.itemId);
      const path = `body.cart.${i}`;
      if (!item) return [{ path, message: 'This item is no longer on the menu.' }];
      if (item.stallStatus !== 'open') return [{ path, message: `${item.stallName} is not taking orders right now.` }];
      const availability = stallAvailability({ status: item.stallStatus, hours: item.stallHours === null ? null : JSON.parse(item.stallHours) }, Date.parse(at), venue.timeZone);
      if (availability.state === 'closed') {
        const opens = availability.opensAt ? `; it opens ${opensWords(availability.opensAt, Date.parse(at), venue.timeZone)}` : '';
        return [{ path, message: `${item.stallName} is closed now${opens}.` }];
      }
      if (item.soldOut) return [{ path, message: `${item.name} is sold out.` }];
      return [];
    });
  }

  /** Stalls' waits for an order placed now (`stallIds`, or every stall; one with no recent tickets and no queue: unknown). */
  const stallWaits = async (repository: OrdersRepository, at: string, stallIds?: readonly number[]) => {
    const loads = await repository.stallLoads(new Date(Date.parse(at) - WAIT_WINDOW_MINUTES * 60_000).toISOString(), stallIds);
    return (stallId: number) => waitEstimate(loads.get(stallId) ?? { prepMinutes: [], ahead: 0 });
  };

  /** Inside a write, first: the order held until it ends, and this stall's ticket of it (404 when either is not there). */
  async function ticketIn(tx: PtWrite, stall: Pick<Stall, 'id' | 'name'>, orderId: number) {
    await tx.orders.lockOrder(orderId);
    const stored = await tx.orders.find(orderId);
    if (!stored) throw notFound(`No order with id ${orderId}.`);
    const current = publicOrder(stored);
    const ticket = current.tickets.find((t) => t.stallId === stall.id);
    if (!ticket) throw notFound(`Order ${orderId} has nothing from ${stall.name}.`);
    return { current, ticket };
  }

  /**
   * After a stall's ticket moved to `to` (or stayed, a line changed): its preparation joins or leaves
   * the figures as it becomes or stops being ready, the order's open status follows its tickets, and
   * the order's live event carries it all.
   */
  async function ticketMoved(tx: PtWrite, current: Order, ticket: OrderTicket, to: TicketStatus, at: string): Promise<KitchenTicket> {
    if (to === 'ready' && ticket.status !== 'ready') await tx.figures.prepared({ stallId: ticket.stallId, receivedAt: ticket.receivedAt, readyAt: at }, true);
    if (to !== 'ready' && ticket.status === 'ready' && ticket.readyAt) await tx.figures.prepared({ stallId: ticket.stallId, receivedAt: ticket.receivedAt, readyAt: ticket.readyAt }, false);
    const tickets = current.tickets.map((t) => (t.stallId === ticket.stallId ? { ...t, status: to } : t));
    // Always rewritten (its status may stay), so the order's change time says a ticket moved.
    if (!(await tx.orders.moveStatus(current.id, current.status, orderStatusOfTickets(tickets), at))) {
      throw conflict(`Order ${current.id} was changed meanwhile; try again.`);
    }
    const changed = publicOrder((await tx.orders.find(current.id))!);
    tx.announce(changed);
    return kitchenTicketOf(changed, ticket.stallId)!;
  }

  /** A retry with a key already used: the same order again, or 422 when the key came with another order. */
  function replay(existing: StoredOrder, requestHash: string): PlacedOrder {
    if (existing.requestHash !== requestHash) {
      throw new HttpError(422, 'This Idempotency-Key was already used for a different order. Send a new key for a new order.');
    }
    return { ...publicOrder(existing), token: existing.token, replayed: true };
  }

  return {
    listStalls: (query: StallListQuery): Promise<Page<Stall>> => stalls.list(query),
    getStall: async (id: number): Promise<StallWithItems> => (await stalls.findWithItems(id)) ?? Promise.reject(notFound(`No stall with id ${id}.`)),

    async createStall(actor: AuditActor, input: CreateStall) {
      const id = await inTransaction(async (tx) => {
        const id = await tx.stalls.insert({ name: input.name, description: input.description ?? null, cuisine: input.cuisine ?? null }, now());
        const stall = (await tx.stalls.find(id))!;
        await tx.audit(actor, { kind: 'stall', action: 'created', subjectId: id, subject: stall.name, changes: changesOf(null, stall, STALL_FIELDS) });
        tx.announceMenu({ kind: 'stall', stall });
        return id;
      });
      return { id };
    },

    async updateStall(actor: AuditActor, id: number, patch: UpdateStall): Promise<Stall> {
      await inTransaction(async (tx) => {
        const before = await tx.stalls.find(id);
        if (!before || !(await tx.stalls.update(id, patch, now()))) throw notFound(`No stall with id ${id}.`);
        const after = (await tx.stalls.find(id))!;
        const changes = changesOf(before, after, STALL_FIELDS);
        if (changes.length > 0) {
          await tx.audit(actor, { kind: 'stall', action: 'updated', subjectId: id, subject: after.name, changes });
          tx.announceMenu({ kind: 'stall', stall: after });
        }
      });
      return stallOr404(id);
    },

    async deleteStall(actor: AuditActor, id: number): Promise<void> {
      const deleted = await inTransaction(async (tx) => {
        await tx.stalls.lockStalls([id]);
        const stall = await tx.stalls.find(id);
        if (!stall || !(await tx.stalls.deleteIfNoOpenOrders(id))) return false;
        await tx.figures.stallDeleted(id, stall.name);
        await tx.audit(actor, { kind: 'stall', action: 'deleted', subjectId: id, subject: stall.name, changes: changesOf(stall, null, STALL_FIELDS) });
        tx.announceMenu({ kind: 'stall-removed', id });
        return true;
      });
      if (deleted) return;
      const stall = await stallOr404(id);
      throw conflict(`${stall.name} still has orders that are not served yet. Serve or cancel them first, or pause the stall.`);
    },

    async createItem(actor: AuditActor, stallId: number, input: CreateMenuItem) {
      const stall = await stallOr404(stallId);
      const id = await inTransaction(async (tx) => {
        const id = await tx.stalls.insertItem(stallId, { ...input, description: input.description ?? null }, now());
        const item = (await tx.stalls.findItem(id))!;
        await tx.audit(actor, { kind: 'menu_item', action: 'created', subjectId: id, subject: itemLabel(item, stall), changes: changesOf(null, item, ITEM_FIELDS) });
        tx.announceMenu({ kind: 'item', item });
        return id;
      });
      return { id };
    },

    /** `ofStall`: only a dish of this stall (a kitchen's own), else 404 as if there were none. */
    async updateItem(actor: AuditActor, id: number, patch: UpdateMenuItem, ofStall?: number): Promise<MenuItem> {
      return inTransaction(async (tx) => {
        const before = await tx.stalls.findItem(id);
        const missing = ofStall === undefined ? `No menu item with id ${id}.` : `No dish with id ${id} at this stall.`;
        if (!before || (ofStall !== undefined && before.stallId !== ofStall) || !(await tx.stalls.updateItem(id, patch, now()))) throw notFound(missing);
        const after = (await tx.stalls.findItem(id))!;
        const changes = changesOf(before, after, ITEM_FIELDS);
        if (changes.length > 0) {
          await tx.audit(actor, { kind: 'menu_item', action: 'updated', subjectId: id, subject: itemLabel(after, await tx.stalls.find(after.stallId)), changes });
          tx.announceMenu({ kind: 'item', item: after });
        }
        return after;
      });
    },

    async deleteItem(actor: AuditActor, id: number): Promise<void> {
      const deleted = await inTransaction(async (tx) => {
        const item = await tx.stalls.findItem(id);
        if (!item || !(await tx.stalls.deleteItem(id))) return false;
        await tx.audit(actor, { kind: 'menu_item', action: 'deleted', subjectId: id, subject: itemLabel(item, await tx.stalls.find(item.stallId)), changes: changesOf(item, null, ITEM_FIELDS) });
        tx.announceMenu({ kind: 'item-removed', id, stallId: item.stallId });
        return true;
      });
      if (!deleted) throw notFound(`No menu item with id ${id}.`);
    },

    async menu(): Promise<Menu> {
      const at = now();
      const [all, waitOf] = await Promise.all([stalls.allWithItems(), stallWaits(orders, at)]);
      const shown = all.map((stall) => ({ ...stall, wait: waitOf(stall.id), availability: stallAvailability(stall, Date.parse(at), venue.timeZone) }));
      // Stable: by name within each group, as read.
      shown.sort((a, b) => MENU_ORDER[a.availability.state] - MENU_ORDER[b.availability.state]);
      return { currency: venue.currency, tables: venue.tables, timeZone: venue.timeZone, stalls: shown };
    },

    /**
     * Prices the cart from the menu (never from the browser), refuses lines that cannot be ordered
     * now, and stores the order once per idempotency key, with the live event that announces it.
     */
    async placeOrder(input: PlaceOrder, idempotencyKey: string | undefined): Promise<PlacedOrder> {
      if (input.table > venue.tables) throw badRequest('There is no such table here.', [{ path: 'body.table', message: `Tables are numbered 1 to ${venue.tables}` }]);
      const requestHash = sha256(JSON.stringify(input));
      if (idempotencyKey) {
        const existing = await orders.findByIdempotencyKey(idempotencyKey);
        if (existing) return replay(existing, requestHash);
      }

      const itemIds = [...new Set(input.cart.map((line) => line.itemId))];
      // Checked and written in one transaction that holds the stalls, so a stall deleted at the same
      // moment either waits for this order (and then refuses, it has an open order) or is gone before
      // the check (and the line is refused) — never an order whose stall vanished under it.
      const writeOrder = async (tx: PtWrite) => {
        let items = await tx.stalls.itemsForOrder(itemIds);
        // Read again once the locks are held: a change that committed while this waited shows.
        if (await tx.stalls.lockStalls(items.map((item) => item.stallId))) items = await tx.stalls.itemsForOrder(itemIds);
        const at = now();
        const refused = unorderableLines(input.cart, items, at);
        if (refused.length > 0) {
          throw new HttpError(409, refused.length === 1 ? 'One line of the order cannot be ordered right now.' : `${refused.length} lines of the order cannot be ordered right now.`, { errors: refused });
        }
        const byId = new Map(items.map((item) => [item.id, item]));
        const lines: NewOrder['lines'] = input.cart.map((line) => {
          const item = byId.get(line.itemId)!;
          return {
            itemId: item.id,
            stallId: item.stallId,
            stallName: item.stallName,
            name: item.name,
            unitPriceCents: item.priceCents,
            quantity: line.quantity,
            note: line.note ?? null,
            allergens: JSON.parse(item.allergens) as string[],
          };
        });
        // Read in the transaction, before this order's tickets exist: the queue is exactly the one ahead of it.
        const waitOf = await stallWaits(tx.orders, at, [...new Set(lines.map((line) => line.stallId))]);
        const order: NewOrder = {
          table: input.table,
          totalCents: lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0),
          token: crypto.randomBytes(18).toString('base64url'),
          idempotencyKey: idempotencyKey ?? null,
          requestHash,
          wait: orderWait([...new Set(lines.map((line) => line.stallId))].map(waitOf)),
          lines,
        };
        const placed = await tx.orders.insert(order, at);
        tx.announce(publicOrder(placed));
        // Last: the hour's figures are one row every order of that hour writes, held until this commits.
        await tx.figures.placed(placed);
        return placed;
      };

      let placed: StoredOrder;
      try {
        placed = await inTransaction(writeOrder);
      } catch (err) {
        // The same key arrived twice at once (a double tap, a retry on another instance): the first one stands.
        const first = idempotencyKey && isUniqueViolation(err) ? await orders.findByIdempotencyKey(idempotencyKey) : undefined;
        if (first) return replay(first, requestHash);
        throw err;
      }
      counted.orderPlaced();
      return { ...publicOrder(placed), token: placed.token, replayed: false };
    },

    /** A diner's own order: without its token it does not exist for them. */
    async orderForDiner(id: number, token: string | undefined): Promise<Order> {
      const order = await orders.find(id);
      if (!order || !token || !sameToken(order.token, token)) throw notFound(`No order with id ${id}.`);
      return publicOrder(order);
    },

    listOrders: (query: OrderListQuery): Promise<Page<Order>> => orders.list(query),

    /** A stall's kitchen screen: its part of every open order, oldest first. */
    async kitchen(stallId: number): Promise<Kitchen> {
      const stall = await stallOr404(stallId);
      const open = await orders.openForStall(stallId);
      return { stall: { id: stall.id, name: stall.name }, tickets: open.flatMap((order) => kitchenTicketOf(order, stallId) ?? []) };
    },

    /**
     * A kitchen bumps (or undoes) its ticket from the step its screen saw. Already there: answered as
     * it is, nothing written (a queued bump replayed). Elsewhere: 409. The order's open status then
     * follows its tickets, in the same transaction, and the order's live event carries both.
     * Not audited: moving orders is the crew's work, not set-up (decision 0058).
     */
    async moveTicket(stallId: number, orderId: number, move: MoveTicket): Promise<KitchenTicket> {
      const stall = await stallOr404(stallId);
      return inTransaction(async (tx) => {
        const { current, ticket } = await ticketIn(tx, stall, orderId);
        if (ticket.status === move.to) return kitchenTicketOf(current, stallId)!;
        if (!isOpenStatus(current.status)) throw conflict(`Order ${orderId} is ${current.status}; its tickets no longer move.`);
        const at = now();
        if (ticket.status !== move.from || !(await tx.orders.moveTicket(orderId, stallId, move.from, move.to, at))) {
          throw conflict(`${stall.name}'s ticket of order ${orderId} is ${ticket.status} now, not ${move.from}: another screen moved it. The screen shows it as it is now.`);
        }
        // Its lines follow: all ready with it; back from ready, the ones that made it ready are not; back to new, none is.
        if (move.to === 'ready') await tx.orders.markTicketLines(orderId, stallId, at);
        else if (move.from === 'ready') await tx.orders.markTicketLines(orderId, stallId, null, ticket.readyAt);
        else if (move.to === 'received') await tx.orders.markTicketLines(orderId, stallId, null);
        return ticketMoved(tx, current, ticket, move.to, at);
      });
    },

    /**
     * A kitchen marks one line of its ticket ready, or not ready after all. Already so: answered as
     * it is, nothing written (a queued tap replayed). The first line ready starts the ticket, the last
     * makes it ready (exactly once: the order is held, so two taps at once are counted one after the
     * other), one taken back from a ready ticket makes it preparing again; the order follows its
     * tickets, and its live event carries the lines. 409 once the order is served or cancelled.
     */
    async moveLine(stallId: number, orderId: number, lineId: number, move: MoveLine): Promise<KitchenTicket> {
      const stall = await stallOr404(stallId);
      return inTransaction(async (tx) => {
        const { current, ticket } = await ticketIn(tx, stall, orderId);
        const lines = current.lines.filter((line) => line.stallId === stallId);
        const line = lines.find((l) => l.id === lineId);
        if (!line) throw notFound(`${stall.name}'s ticket of order ${orderId} has no line ${lineId}.`);
        if ((line.readyAt !== null) === move.ready) return kitchenTicketOf(current, stallId)!;
        if (!isOpenStatus(current.status)) throw conflict(`Order ${orderId} is ${current.status}; its dishes no longer change.`);
        const at = now();
        await tx.orders.markLine(orderId, stallId, lineId, move.ready ? at : null);
        const allReady = lines.every((l) => (l.id === lineId ? move.ready : l.readyAt !== null));
        // A new ticket has no line ready (one sent back to new has them all taken back), so any change here starts it.
        const to: TicketStatus = allReady ? 'ready' : 'preparing';
        if (to !== ticket.status && !(await tx.orders.moveTicket(orderId, stallId, ticket.status, to, at))) {
          throw conflict(`Order ${orderId} was changed meanwhile; try again.`);
        }
        return ticketMoved(tx, current, ticket, to, at);
      });
    },

    async moveOrder(id: number, to: OrderStatus): Promise<Order> {
      const order = await orderOr404(id);
      if (!canMoveOrder(order.status, to)) throw conflict(`Order ${id} is ${order.status}; it cannot go to ${to} from there.`);
      const moved = await inTransaction(async (tx) => {
        const at = now();
        if (!(await tx.orders.moveStatus(id, order.status, to, at))) return undefined;
        // Forward only: an undo corrects the runner's own step, the stalls' work stays as they left it.
        if ((to === 'preparing' && order.status === 'received') || (to === 'ready' && order.status !== 'ready')) {
          for (const ticket of await tx.orders.bringTicketsTo(id, to, at)) await tx.figures.prepared({ ...ticket, readyAt: at }, true);
        }
        const changed = publicOrder((await tx.orders.find(id))!);
        tx.announce(changed);
        // Cancelled, or brought back from cancelled: its revenue leaves (or comes back to) its hour's figures.
        if ((order.status === 'cancelled') !== (to === 'cancelled')) await tx.figures.cancelled(changed, to === 'cancelled');
        return changed;
      });
      if (moved) return moved;
      const current = await orderOr404(id);
      throw conflict(`Order ${id} was changed meanwhile and is now ${current.status}.`);
    },
  };
}
export type PtService = ReturnType<typeof ptService>;
