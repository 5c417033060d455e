import { answerCache } from './answer-cache';

const answer = (text: string) => ({ body: Buffer.from(text), etag: `W/"${text}"` });

describe('answerCache', () => {
  let marker = 1;
  const cache = () => answerCache(() => String(marker), { maxEntries: 2, maxBytes: 10 });
  beforeEach(() => (marker = 1));

  it('gives back a kept answer while the database is unchanged, and forgets every answer once it changes', () => {
    const answers = cache();
    const first = answers.find('/a');
    expect(first.answer).toBeUndefined();
    answers.keep('/a', first.marker, answer('a'));
    expect(answers.find('/a').answer?.body.toString()).toBe('a');
    expect(answers.find('/b').answer).toBeUndefined();
    marker = 2;
    expect(answers.find('/a').answer).toBeUndefined();
  });

  it('does not keep an answer made while something was written (it may hold the data from before)', () => {
    const answers = cache();
    const { marker: seen } = answers.find('/a');
    marker = 2;
    answers.keep('/a', seen, answer('old'));
    expect(answers.find('/a').answer).toBeUndefined();
    // Nor when another request has already seen the change and the write is over.
    marker = 3;
    const { marker: before } = answers.find('/b');
    marker = 4;
    answers.find('/c');
    answers.keep('/b', before, answer('old'));
    expect(answers.find('/b').answer).toBeUndefined();
  });

  it('keeps at most maxEntries answers, dropping the oldest, and none larger than maxBytes', () => {
    const answers = cache();
    for (const key of ['/1', '/2', '/3']) answers.keep(key, answers.find(key).marker, answer(key));
    expect(['/1', '/2', '/3'].map((key) => answers.find(key).answer?.body.toString())).toEqual([undefined, '/2', '/3']);
    answers.keep('/big', answers.find('/big').marker, answer('more than ten bytes'));
    expect(answers.find('/big').answer).toBeUndefined();
  });
});
