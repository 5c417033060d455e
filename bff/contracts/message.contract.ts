import * as v from 'valibot';
import { requiredText } from './common.contract';

/**
 * What staff chat and guest conversations share: a message is plain text (the client makes links
 * clickable; nothing a sender writes is ever rendered as HTML), written by a staff account or by
 * the guest of a conversation.
 */

export const MAX_MESSAGE_LENGTH = 2000;

/** A message's text: trimmed, not blank, at most {@link MAX_MESSAGE_LENGTH} characters. */
export const MessageBodySchema = requiredText('Write a message first', MAX_MESSAGE_LENGTH);

export const MESSAGE_AUTHOR_KINDS = ['staff', 'guest'] as const;

export const MessageAuthorSchema = v.object({
  kind: v.picklist(MESSAGE_AUTHOR_KINDS),
  /** The staff account; null for a guest (and for an account since deleted). */
  accountId: v.nullable(v.number()),
  name: v.string(),
});
export type MessageAuthor = v.InferOutput<typeof MessageAuthorSchema>;

/** `{ body }` of every send and edit. */
export const SendMessageSchema = v.object({ body: MessageBodySchema });
export type SendMessage = v.InferOutput<typeof SendMessageSchema>;
