import crypto from 'node:crypto';
import type { SessionUser } from '../../contracts/auth.contract';
import type { Page } from '../../contracts/common.contract';
import type {
  Conversation,
  ConversationEvent,
  ConversationListQuery,
  ConversationMessage,
  ConversationSummary,
  StartConversation,
  UpdateConversation,
  Waiting,
} from '../../contracts/conversations.contract';
import type { InTransaction } from '../../lib/event-bus';
import { badRequest, HttpError, notFound } from '../../lib/http-error';
import type { ConversationsRepository } from './conversations.repository';

/** Who is asking: someone at the front desk, a guest's device (by its token), or neither. */
export type Viewer = { kind: 'staff'; user: SessionUser } | { kind: 'guest'; token: string } | { kind: 'nobody' };

/** A write of the conversations: the repository in one transaction, and the live events that announce it. */
export interface ConversationsWrite {
  conversations: ConversationsRepository;
  /** Sends a `conversation` live event (front desk, and the guest's own stream) once this write commits. */
  announce: (event: ConversationEvent) => void;
}

export interface ConversationsServiceDeps {
  conversations: ConversationsRepository;
  inTransaction: InTransaction<ConversationsWrite>;
  venue: { tables: number };
  now?: () => string;
}

/** A guest's device token: 32 url-safe characters (192 random bits). */
export const GUEST_TOKEN = /^[A-Za-z0-9_-]{32}$/;
export const newGuestToken = () => crypto.randomBytes(24).toString('base64url');
const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const sameHash = (a: string, b: string) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function conversationsService({ conversations, inTransaction, venue, now = () => new Date().toISOString() }: ConversationsServiceDeps) {
  /** Throws 404 unless the viewer is the front desk or this conversation's guest. */
  async function assertMayRead(viewer: Viewer, id: number): Promise<void> {
    const tokenHash = await conversations.guestTokenHash(id);
    const mayRead = tokenHash !== undefined && (viewer.kind === 'staff' || (viewer.kind === 'guest' && sameHash(tokenHash, hashOf(viewer.token))));
    if (!mayRead) throw notFound(`No conversation with id ${id}.`);
  }
  const summaryOr404 = async (id: number, reader: number, repository = conversations) =>
    (await repository.summary(id, reader)) ?? Promise.reject(notFound(`No conversation with id ${id}.`));
  /** The conversation as the write leaves it, announced in the write. */
  const announce = async (tx: ConversationsWrite, id: number, kind: ConversationEvent['kind'], message?: ConversationMessage) => {
    const { unread: _perReader, ...conversation } = await summaryOr404(id, 0, tx.conversations);
    tx.announce({ kind, conversation, ...(message ? { message } : {}) });
  };

  return {
    /** A guest's help request: stored with its first message; the device keeps the token it had, or gets one. */
    async start(input: StartConversation, deviceToken: string | undefined): Promise<{ id: number; token: string }> {
      if (input.table != null && input.table > venue.tables) throw badRequest('There is no such table here.', [{ path: 'body.table', message: `Tables are numbered 1 to ${venue.tables}` }]);
      const token = deviceToken && GUEST_TOKEN.test(deviceToken) ? deviceToken : newGuestToken();
      const id = await inTransaction(async (tx) => {
        const started = await tx.conversations.insert({ guestName: input.name, table: input.table ?? null, email: input.email ?? null, tokenHash: hashOf(token) }, input.body, now());
        const [message] = await tx.conversations.messages(started);
        await announce(tx, started, 'message', message);
        return started;
      });
      return { id, token };
    },

    list: (user: SessionUser, query: ConversationListQuery): Promise<Page<ConversationSummary>> => conversations.list(user.id, query),
    waiting: async (user: SessionUser): Promise<Waiting> => ({ unread: await conversations.unreadInOpen(user.id) }),

    async get(viewer: Viewer, id: number): Promise<Conversation> {
      await assertMayRead(viewer, id);
      const [summary, messages] = await Promise.all([summaryOr404(id, viewer.kind === 'staff' ? viewer.user.id : 0), conversations.messages(id)]);
      // Unread counts are the front desk's: a guest has read everything they were shown.
      return { ...summary, unread: viewer.kind === 'staff' ? summary.unread : 0, messages };
    },

    assertMayRead,

    /**
     * A guest writing again reopens the conversation; the front desk answering an unassigned one
     * takes it (and has read everything up to their answer).
     */
    async reply(viewer: Viewer, id: number, body: string): Promise<ConversationMessage> {
      await assertMayRead(viewer, id);
      return inTransaction(async (tx) => {
        const summary = await tx.conversations.summary(id, 0);
        if (!summary) throw notFound(`No conversation with id ${id}.`);
        let written: ConversationMessage;
        if (viewer.kind === 'staff') {
          written = await tx.conversations.insertMessage(id, { kind: 'staff', accountId: viewer.user.id, name: viewer.user.name }, body, now(), { claimBy: viewer.user.id });
          await tx.conversations.markRead(id, viewer.user.id);
        } else {
          written = await tx.conversations.insertMessage(id, { kind: 'guest', accountId: null, name: summary.guestName }, body, now(), { status: 'open' });
        }
        await announce(tx, id, 'message', written);
        return written;
      });
    },

    async update(user: SessionUser, id: number, patch: UpdateConversation): Promise<ConversationSummary> {
      await summaryOr404(id, user.id);
      if (patch.assigneeId != null && !(await conversations.frontDeskAccountName(patch.assigneeId))) {
        throw new HttpError(422, `There is no staff account with id ${patch.assigneeId}.`, { errors: [{ path: 'body.assigneeId', message: 'Assign to a staff or admin account' }] });
      }
      await inTransaction(async (tx) => {
        await tx.conversations.update(id, { status: patch.status, assigneeId: patch.assigneeId }, now());
        await announce(tx, id, 'updated');
      });
      return summaryOr404(id, user.id);
    },

    async markRead(user: SessionUser, id: number): Promise<ConversationSummary> {
      await summaryOr404(id, user.id);
      await conversations.markRead(id, user.id);
      return summaryOr404(id, user.id);
    },
  };
}
export type ConversationsService = ReturnType<typeof conversationsService>;
