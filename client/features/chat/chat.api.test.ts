import type { ChatMessage } from '@contracts/chat.contract';
import { withNewest, withOlder, type Thread } from './chat.api';

const at = (id: number): ChatMessage => ({
  id,
  channelId: 1,
  author: { kind: 'staff', accountId: 2, name: 'Sam Rivera' },
  body: `Message ${id}`,
  createdAt: new Date(Date.UTC(2025, 2, 1, 9, 0, id)).toISOString(),
  editedAt: null,
  deleted: false,
});
/** Messages `from` down to `to` (newest first), the cursor at the oldest. */
const slice = (from: number, to: number, older: number | null = to): Thread => ({
  items: Array.from({ length: from - to + 1 }, (_, i) => at(from - i)),
  older,
});
const ids = (thread: Thread) => thread.items.map((m) => m.id);

describe('withOlder', () => {
  it('joins the slice before the oldest loaded message on behind it, with its cursor', () => {
    const joined = withOlder(slice(60, 31), slice(30, 1, null), 31);
    expect(ids(joined)).toEqual(ids(slice(60, 1)));
    expect(joined.older).toBeNull();
  });

  it('leaves out a slice that no longer joins on: the thread was read again from its newest while it was on its way', () => {
    // The reader scrolled up from 31; meanwhile 100 messages came and the thread was read again from its newest.
    const readAgain = withNewest(slice(60, 31), slice(160, 131));
    expect(ids(readAgain)).toEqual(ids(slice(160, 131)));
    const joined = withOlder(readAgain, slice(30, 1, null), 31);
    // No hole from 130 down to 31: the thread stays as it is, its cursor still at 131.
    expect(joined).toBe(readAgain);
    expect(joined.older).toBe(131);
  });

  it('changes nothing in a thread that has its start already', () => {
    const whole = slice(10, 1, null);
    expect(withOlder(whole, slice(5, 1, null), 6)).toBe(whole);
  });
});
