import { mayHearLiveEvent } from './live-audience';

/** Who hears a live event follows who may read what it announces (each list's own access). */
describe('the audience of live events', () => {
  it('gives runners the orders and the chat, not the door events nor the guest conversations', () => {
    expect(['webhook', 'order', 'chat', 'conversation'].map((type) => mayHearLiveEvent({ type: type as 'order', data: {} }, 'runner'))).toEqual([false, true, true, false]);
  });

  it('gives staff and admins every kind', () => {
    for (const role of ['staff', 'admin'] as const) {
      expect(['webhook', 'order', 'chat', 'conversation'].every((type) => mayHearLiveEvent({ type: type as 'order', data: {} }, role))).toBe(true);
    }
  });

  it("narrows a kind's audience to the roles an event names (a desk-only channel's message never reaches a runner)", () => {
    expect(mayHearLiveEvent({ type: 'chat', data: { audience: ['staff'] } }, 'runner')).toBe(false);
    expect(mayHearLiveEvent({ type: 'chat', data: { audience: ['staff'] } }, 'staff')).toBe(true);
    expect(mayHearLiveEvent({ type: 'chat', data: { audience: ['staff'] } }, 'admin')).toBe(true);
  });
});
