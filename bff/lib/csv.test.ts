import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { csvCell, csvLine, inBatches, sendCsv } from './csv';

describe('CSV cells', () => {
  it('quote commas, quotes and line breaks, and keep non-ASCII text as written', () => {
    expect(csvLine(['Smith, Jo', 'say "hi"', 'two\nlines', 'Zoë Ørsted', 42, true, null])).toBe(
      '"Smith, Jo","say ""hi""","two\nlines",Zoë Ørsted,42,true,\r\n',
    );
  });

  it('write text a spreadsheet would run as a formula as plain text', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('@SUM(A1)')).toBe(`'@SUM(A1)`);
    expect(csvCell(-3)).toBe('-3');
  });
});

describe('inBatches', () => {
  it('reads after the last row of each full batch and stops at a short one', async () => {
    const rows = [1, 2, 3, 4, 5];
    const asked: (number | undefined)[] = [];
    const read = async (last: number | undefined) => (asked.push(last), rows.filter((r) => r > (last ?? 0)).slice(0, 2));
    const seen: number[][] = [];
    for await (const batch of inBatches(read, 2)) seen.push([...batch]);
    expect(seen).toEqual([[1, 2], [3, 4], [5]]);
    expect(asked).toEqual([undefined, 2, 4]);
  });
});

describe('sendCsv', () => {
  /** A response that takes a batch only after a `drain` each time (a client reading slower than rows come). */
  function slowResponse() {
    const res = new EventEmitter() as EventEmitter & Record<string, unknown>;
    const written: string[] = [];
    Object.assign(res, {
      destroyed: false,
      status: () => res,
      type: () => res,
      attachment: () => res,
      setHeader: () => res,
      write: (text: string) => {
        written.push(text);
        setImmediate(() => res.emit('drain'));
        return false;
      },
      end: () => written.push('<end>'),
    });
    return { res: res as unknown as Response & EventEmitter, written };
  }
  const columns = [{ heading: 'n', value: (n: number) => n }];
  async function* batches(count: number, read: number[] = []) {
    for (let i = 0; i < count; i++) {
      read.push(i);
      yield [i];
    }
  }

  it('waits for a slow client 30 times without leaving a listener behind (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    const { res, written } = slowResponse();
    await sendCsv(res, 'x.csv', columns, batches(30));
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(written).toHaveLength(32); // the headings, 30 batches, the end
    expect(res.listenerCount('close')).toBe(0);
    expect(res.listenerCount('drain')).toBe(0);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('sends the headings before the first batch is read, and each batch as it comes, through the compression too', async () => {
    const { res, written } = slowResponse();
    const flush = jest.fn();
    Object.assign(res, { flush });
    const seenAtFirstRead: { written: number; flushed: number }[] = [];
    async function* watched() {
      seenAtFirstRead.push({ written: written.length, flushed: flush.mock.calls.length });
      yield [1];
      yield [2];
    }
    await sendCsv(res, 'x.csv', columns, watched());
    expect(seenAtFirstRead).toEqual([{ written: 1, flushed: 1 }]);
    expect(flush).toHaveBeenCalledTimes(3);
  });

  it('reads no further batch once the client has gone', async () => {
    const { res, written } = slowResponse();
    const read: number[] = [];
    const sending = sendCsv(res, 'x.csv', columns, batches(1000, read));
    await new Promise((resolve) => setImmediate(resolve));
    (res as unknown as { destroyed: boolean }).destroyed = true;
    res.emit('close');
    await sending;
    expect(read.length).toBeLessThan(5);
    expect(written).not.toContain('<end>');
  });

  it('lets other work run between two batches the client took at once', async () => {
    const { res } = slowResponse();
    let othersRan = false;
    let ranBeforeTheEnd: boolean | undefined;
    Object.assign(res, { write: () => true, end: () => (ranBeforeTheEnd = othersRan) });
    // Another request's work, waiting on the event loop when the export starts.
    setImmediate(() => (othersRan = true));
    await sendCsv(res, 'x.csv', columns, batches(20));
    expect(ranBeforeTheEnd).toBe(true);
  });
});
