import type { SessionUser } from '../../contracts/auth.contract';
import type { Channel, ChannelList, ChatEvent, ChatMessage, CreateChannel, MessageSlice, MessagesQuery, ReadState, UpdateChannel } from '../../contracts/chat.contract';
import type { Role } from '../../contracts/endpoint.contract';
import { isUniqueViolation } from '../../db/engine';
import { changesOf, type Audit } from '../../db/audit-trail';
import type { InTransaction } from '../../lib/event-bus';
import { conflict, forbidden, notFound } from '../../lib/http-error';
import { NO_COUNTERS, type Counters } from '../../lib/metrics';
import type { ChatRepository, StoredChannel } from './chat.repository';

/** A write of the chat: the repository in one transaction, and the live events that announce it. */
export interface ChatWrite {
  chat: ChatRepository;
  /** Sends a `chat` live event to `audience` (and admins) once this write commits. */
  announce: (event: ChatEvent, audience: readonly Role[]) => void;
  /** Records a channel change in the audit trail, in this transaction. */
  audit: Audit;
}

const CHANNEL_FIELDS = ['name', 'topic', 'runnersMayJoin', 'archivedAt'] as const;
const channelAction = (before: StoredChannel, after: StoredChannel) =>
  !before.archivedAt && after.archivedAt ? 'archived' : before.archivedAt && !after.archivedAt ? 'reopened' : 'updated';

export interface ChatServiceDeps {
  chat: ChatRepository;
  inTransaction: InTransaction<ChatWrite>;
  /** Counts a message once it is stored (the metrics' messages per minute). */
  counted?: Pick<Counters, 'chatMessagePosted'>;
  now?: () => string;
}

/** Runners read and write only the channels open to them; staff and admins every channel. */
const mayRead = (user: SessionUser, channel: StoredChannel) => user.role !== 'runner' || channel.runnersMayJoin;
const audienceOf = (channel: StoredChannel): Role[] => (channel.runnersMayJoin ? ['staff', 'runner'] : ['staff']);

export function chatService({ chat, inTransaction, counted = NO_COUNTERS, now = () => new Date().toISOString() }: ChatServiceDeps) {
  /** The channel if this user may read it; a channel they may not see does not exist for them. */
  const channelFor = async (user: SessionUser, id: number) => {
    const channel = await chat.find(id);
    if (!channel || !mayRead(user, channel)) throw notFound(`No channel with id ${id}.`);
    return channel;
  };
  const openChannelFor = async (user: SessionUser, id: number) => {
    const channel = await channelFor(user, id);
    if (channel.archivedAt) throw conflict(`#${channel.name} is archived: it can be read, not written in.`);
    return channel;
  };
  /** The message and its channel, if this user may read the channel. */
  const messageFor = async (user: SessionUser, id: number) => {
    const message = await chat.findMessage(id);
    const channel = message && (await chat.find(message.channelId));
    if (!message || !channel || !mayRead(user, channel)) throw notFound(`No message with id ${id}.`);
    return { message, channel };
  };
  const listFor = (user: SessionUser, includeArchived: boolean) => chat.list(user.id, { runnersOnly: user.role === 'runner', includeArchived });
  const totalUnread = (channels: Channel[]) => channels.reduce((sum, channel) => sum + (channel.archivedAt ? 0 : channel.unread), 0);
  const announce = (tx: ChatWrite, kind: 'posted' | 'edited' | 'deleted', channel: StoredChannel, message: ChatMessage) =>
    tx.announce({ kind, channelId: channel.id, message }, audienceOf(channel));
  const announceChannel = async (tx: ChatWrite, id: number) => {
    const channel = await tx.chat.find(id);
    // Who may hear of a channel is who may read it after the change.
    if (channel) tx.announce({ kind: 'channel', channelId: id }, audienceOf(channel));
  };

  return {
    async listChannels(user: SessionUser, includeArchived: boolean): Promise<ChannelList> {
      const channels = await listFor(user, includeArchived);
      return { channels, totalUnread: totalUnread(channels) };
    },

    async createChannel(user: SessionUser, input: CreateChannel): Promise<{ id: number }> {
      try {
        return await inTransaction(async (tx) => {
          const id = await tx.chat.insert({ name: input.name, topic: input.topic ?? null, runnersMayJoin: input.runnersMayJoin }, now());
          const created = (await tx.chat.find(id))!;
          await tx.audit(user, { kind: 'chat_channel', action: 'created', subjectId: id, subject: `#${created.name}`, changes: changesOf(null, created, CHANNEL_FIELDS) });
          await announceChannel(tx, id);
          return { id };
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`There is a channel called ${input.name} already.`);
        throw err;
      }
    },

    async updateChannel(user: SessionUser, id: number, patch: UpdateChannel): Promise<Channel> {
      const before = await chat.find(id);
      if (!before) throw notFound(`No channel with id ${id}.`);
      const archivedAt = patch.archived === undefined ? undefined : patch.archived ? (before.archivedAt ?? now()) : null;
      try {
        await inTransaction(async (tx) => {
          await tx.chat.update(id, { name: patch.name, topic: patch.topic, runnersMayJoin: patch.runnersMayJoin, archivedAt });
          const after = (await tx.chat.find(id))!;
          const changes = changesOf(before, after, CHANNEL_FIELDS);
          if (changes.length > 0) await tx.audit(user, { kind: 'chat_channel', action: channelAction(before, after), subjectId: id, subject: `#${after.name}`, changes });
          // Runners who could read it hear that it closed to them; then everyone who may read it now.
          if (before.runnersMayJoin && patch.runnersMayJoin === false) tx.announce({ kind: 'channel', channelId: id }, ['runner']);
          await announceChannel(tx, id);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`There is a channel called ${patch.name} already.`);
        throw err;
      }
      const channel = (await listFor(user, true)).find((c) => c.id === id);
      if (!channel) throw notFound(`No channel with id ${id}.`);
      return channel;
    },

    async listMessages(user: SessionUser, channelId: number, query: MessagesQuery): Promise<MessageSlice> {
      await channelFor(user, channelId);
      return chat.messages(channelId, query);
    },

    async postMessage(user: SessionUser, channelId: number, body: string): Promise<ChatMessage> {
      const channel = await openChannelFor(user, channelId);
      const posted = await inTransaction(async (tx) => {
        const message = await tx.chat.insertMessage(channel.id, user, body, now());
        // Your own message is read by you: it never counts as unread, and sending moves your place past it.
        await tx.chat.markRead(channel.id, user.id, message.id);
        announce(tx, 'posted', channel, message);
        return message;
      });
      counted.chatMessagePosted();
      return posted;
    },

    async editMessage(user: SessionUser, id: number, body: string): Promise<ChatMessage> {
      const { message, channel } = await messageFor(user, id);
      if (message.author.accountId !== user.id) throw forbidden('You can only edit your own messages.');
      if (message.deleted) throw notFound(`Message ${id} was deleted.`);
      if (channel.archivedAt) throw conflict(`#${channel.name} is archived: its messages cannot be changed.`);
      if (message.body === body) return message;
      const edited = await inTransaction(async (tx) => {
        const changed = await tx.chat.editMessage(id, body, now());
        if (changed) announce(tx, 'edited', channel, changed);
        return changed;
      });
      if (!edited) throw notFound(`Message ${id} was deleted.`);
      return edited;
    },

    async deleteMessage(user: SessionUser, id: number): Promise<void> {
      const { message, channel } = await messageFor(user, id);
      if (message.author.accountId !== user.id && user.role !== 'admin') throw forbidden('You can only delete your own messages.');
      if (channel.archivedAt) throw conflict(`#${channel.name} is archived: its messages cannot be changed.`);
      const deleted = await inTransaction(async (tx) => {
        const blanked = await tx.chat.deleteMessage(id, now());
        if (blanked) announce(tx, 'deleted', channel, blanked);
        return blanked;
      });
      if (!deleted) throw notFound(`Message ${id} was deleted already.`);
    },

    async markRead(user: SessionUser, channelId: number, upTo: number | undefined): Promise<ReadState> {
      await channelFor(user, channelId);
      const newest = await chat.newestMessageId(channelId);
      const lastReadId = await chat.markRead(channelId, user.id, Math.min(upTo ?? newest, newest));
      const channels = await listFor(user, true);
      return { channelId, lastReadId, unread: channels.find((c) => c.id === channelId)?.unread ?? 0, totalUnread: totalUnread(channels) };
    },
  };
}
export type ChatService = ReturnType<typeof chatService>;
