import { csvCell, csvLine, inBatches } from './csv';

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
