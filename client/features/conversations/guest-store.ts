import * as v from 'valibot';
import { storedValue, useStored } from '@/lib/stored-value';

/**
 * What a guest's browser remembers (localStorage, through `storedValue`: read back through a
 * schema, shared with other tabs) so a reload or a later visit to the help page shows their
 * conversation again: the ids of the conversations started here (the httpOnly `guest` cookie is
 * what lets this device read them; the id only says which to show), and who they said they were,
 * to fill in the next request.
 */

// ---- the conversations started on this device -------------------------------------------------

const RememberedSchema = v.object({ id: v.pipe(v.number(), v.integer(), v.minValue(1)), startedAt: v.string() });
export type RememberedConversation = v.InferOutput<typeof RememberedSchema>;
/** Enough for a visit or two; older ones drop off. */
export const REMEMBERED_CONVERSATIONS = 5;

const conversationsStore = storedValue<RememberedConversation[]>('frontdesk.help.conversations', v.array(RememberedSchema), []);

/** Newest first. */
export const useRememberedConversations = () => useStored(conversationsStore);
export const rememberedConversations = () => conversationsStore.read();

export function rememberConversation(id: number, startedAt = new Date().toISOString()) {
  conversationsStore.write([{ id, startedAt }, ...conversationsStore.read().filter((c) => c.id !== id)].slice(0, REMEMBERED_CONVERSATIONS));
}

/** This device cannot open it any more (the cookie is gone, or the conversation is): stop showing it. */
export function forgetConversation(id: number) {
  const list = conversationsStore.read();
  if (list.some((c) => c.id === id)) conversationsStore.write(list.filter((c) => c.id !== id));
}

// ---- who the guest said they were -----------------------------------------------------------------

const GuestSchema = v.object({ name: v.string(), table: v.nullable(v.number()), email: v.nullable(v.string()) });
export type GuestDetails = v.InferOutput<typeof GuestSchema>;

const guestStore = storedValue<GuestDetails | null>('frontdesk.help.guest', v.nullable(GuestSchema), null);

export const rememberedGuest = () => guestStore.read();
export const rememberGuest = (guest: GuestDetails) => guestStore.write(guest);
