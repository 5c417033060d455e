import { keptUntilChange } from './kept-until-change';

/** A read whose answer the test gives when it likes. */
function pendingRead<T>() {
  let answer!: (value: T) => void;
  let fail!: (err: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    answer = resolve;
    fail = reject;
  });
  return { promise, answer, fail };
}

describe('keptUntilChange', () => {
  it('answers a key from the first read until the data changes, then reads again', async () => {
    const kept = keptUntilChange<number>();
    let reads = 0;
    const read = () => kept.read('board', async () => ++reads);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    kept.changed();
    expect(await read()).toBe(2);
    expect(await kept.read('other page', async () => 10)).toBe(10);
  });

  it('shares a read under way, and never keeps one begun before a change', async () => {
    const kept = keptUntilChange<string>();
    const before = pendingRead<string>();
    const first = kept.read('board', () => before.promise);
    const second = kept.read('board', async () => 'not read: the first is under way');
    kept.changed();
    const after = kept.read('board', async () => 'after the change');
    before.answer('before the change');
    expect(await Promise.all([first, second, after])).toEqual(['before the change', 'before the change', 'after the change']);
    expect(await kept.read('board', async () => 'not read: kept')).toBe('after the change');
  });

  it('does not keep a failed read', async () => {
    const kept = keptUntilChange<string>();
    const failing = pendingRead<string>();
    const first = kept.read('board', () => failing.promise);
    failing.fail(new Error('database away'));
    await expect(first).rejects.toThrow('database away');
    expect(await kept.read('board', async () => 'read again')).toBe('read again');
  });

  it('keeps at most maxKeys answers between changes; further keys are read every time', async () => {
    const kept = keptUntilChange<number>(2);
    let reads = 0;
    const read = (key: string) => kept.read(key, async () => ++reads);
    await Promise.all([read('a'), read('b'), read('c')]);
    expect([await read('a'), await read('b'), await read('c')]).toEqual([1, 2, 4]);
    kept.changed();
    expect(await read('c')).toBe(5);
    expect(await read('c')).toBe(5);
  });
});
