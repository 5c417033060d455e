import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { QUIZ_SCORE_KEY } from './quiz-score';
import { fakeSamples, type FakeSamples } from '@/test-support/samples.fake-api';

beforeEach(() => window.localStorage.clear());
afterEach(() => jest.restoreAllMocks());

function setup(samples: FakeSamples = fakeSamples()) {
  const api = fakeBff(samples.handlers);
  const view = renderApp('/quesg');
  return { ...view, api, samples, user: userEvent.setup() };
}

const SILHOUETTE = 'The mystery Pokémon’s silhouette';

/** The name behind the silhouette, read from its picture's address (…/official-artwork/<id>.png), as the fake data names it. */
function answerName(samples: FakeSamples): string {
  const src = decodeURIComponent(screen.getByRole('img', { name: SILHOUETTE }).getAttribute('src') ?? '');
  const id = Number(/\/(\d+)\.png$/.exec(src)?.[1]);
  const name = samples.pokemon.find((p) => p.id === id)!.name;
  return name[0]!.toUpperCase() + name.slice(1);
}

const choices = () => within(screen.getByRole('list', { name: 'Choices' })).getAllByRole('button');
const choice = (name: string) => choices().find((b) => b.textContent?.includes(name))!;
const fact = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
const verdict = () => screen.getAllByRole('status').find((el) => el.classList.contains('smp-verdict'))!;

describe('/quesg', () => {
  it('shows a silhouette and four names from one page of the sample data', async () => {
    const { api, samples } = setup();
    const picture = await screen.findByRole('img', { name: SILHOUETTE });
    expect(picture).toHaveClass('smp-silhouette');
    expect(choices()).toHaveLength(4);
    const names = choices().map((b) => b.textContent!.replace(/^\d/, ''));
    expect(new Set(names).size).toBe(4);
    expect(names).toContain(answerName(samples));
    expect(api.calls.some((c) => c.path.startsWith('/api/samples/pokemon?page='))).toBe(true);
    expect(fact('Score')).toBe('0 of 0');
  });

  it('a right answer reveals the picture, says so, and adds to the score and the streak', async () => {
    const { user, samples } = setup();
    await screen.findByRole('img', { name: SILHOUETTE });
    const name = answerName(samples);
    await user.click(choice(name));
    expect(verdict()).toHaveTextContent(`Right! It’s ${name}.`);
    const revealed = screen.getByRole('img', { name });
    expect(revealed).not.toHaveClass('smp-silhouette');
    expect(fact('Score')).toBe('1 of 1');
    expect(fact('Streak')).toBe('1');
    expect(fact('Best streak')).toBe('1');
    // The choices are settled; the focus is on the next round.
    expect(choice(name)).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next round' })).toHaveFocus();
  });

  it('is playable with the keyboard: 1–4 answer, Enter goes on; a wrong answer ends the streak but keeps the best', async () => {
    const { user, samples } = setup();
    await screen.findByRole('img', { name: SILHOUETTE });
    // Two right answers with the number keys.
    for (let round = 0; round < 2; round++) {
      const name = answerName(samples);
      const key = choices().findIndex((b) => b.textContent?.includes(name)) + 1;
      await user.keyboard(String(key));
      expect(verdict()).toHaveTextContent(`Right! It’s ${name}.`);
      await user.keyboard('{Enter}');
      await screen.findByRole('img', { name: SILHOUETTE });
      expect(choices()[0]).toHaveFocus();
    }
    expect(fact('Streak')).toBe('2');

    const name = answerName(samples);
    const wrong = choices().findIndex((b) => !b.textContent?.includes(name)) + 1;
    await user.keyboard(String(wrong));
    expect(verdict()).toHaveTextContent(`Not quite — it’s ${name}.`);
    expect(fact('Score')).toBe('2 of 3');
    expect(fact('Streak')).toBe('0');
    expect(fact('Best streak')).toBe('2');
  });

  it('keeps the score and the best streak in the browser across a reload', async () => {
    const first = setup();
    await screen.findByRole('img', { name: SILHOUETTE });
    await first.user.click(choice(answerName(first.samples)));
    expect(fact('Best streak')).toBe('1');
    expect(JSON.parse(window.localStorage.getItem(QUIZ_SCORE_KEY)!)).toEqual({ score: 1, played: 1, streak: 1, best: 1 });
    first.unmount();
    jest.restoreAllMocks();

    setup();
    await screen.findByRole('img', { name: SILHOUETTE });
    expect(fact('Score')).toBe('1 of 1');
    expect(fact('Best streak')).toBe('1');
  });

  it('starts the score again but keeps the best streak', async () => {
    window.localStorage.setItem(QUIZ_SCORE_KEY, JSON.stringify({ score: 7, played: 9, streak: 3, best: 5 }));
    const { user } = setup();
    await screen.findByRole('img', { name: SILHOUETTE });
    expect(fact('Score')).toBe('7 of 9');
    await user.click(screen.getByRole('button', { name: 'Start the score again' }));
    expect(fact('Score')).toBe('0 of 0');
    expect(fact('Streak')).toBe('0');
    expect(fact('Best streak')).toBe('5');
  });

  it('draws rounds from random pages of the list', async () => {
    const random = jest.spyOn(Math, 'random').mockReturnValue(0.99);
    const { api, user, samples } = setup();
    await screen.findByRole('img', { name: SILHOUETTE });
    // 14 Pokémon: two full pages of six; 0.99 picks the second (page 1: #7–#12).
    expect(api.calls.map((c) => c.path).filter((p) => p.startsWith('/api/samples/pokemon'))).toEqual(['/api/samples/pokemon?page=0', '/api/samples/pokemon?page=1']);
    expect(samples.pokemon.findIndex((p) => p.name.toLowerCase() === answerName(samples).toLowerCase())).toBeGreaterThanOrEqual(6);

    random.mockReturnValue(0);
    await user.click(choices()[0]!);
    await user.click(screen.getByRole('button', { name: 'Next round' }));
    await waitFor(() => expect(samples.pokemon.findIndex((p) => p.name === answerName(samples).toLowerCase())).toBeLessThan(6));
  });

  it('plays on the BFF’s stale copy when PokeAPI is down, and says so', async () => {
    const samples = fakeSamples();
    samples.stale = 2 * 3600;
    setup(samples);
    expect(await screen.findByRole('img', { name: SILHOUETTE })).toBeInTheDocument();
    expect(screen.getByText(/Showing a copy from/)).toHaveTextContent('Showing a copy from 2 hours ago — PokeAPI cannot be reached right now.');
  });

  it('says when PokeAPI cannot be reached, and tries again', async () => {
    const samples = fakeSamples();
    samples.down = 504;
    const { user } = setup(samples);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load a round. PokeAPI did not answer in time.');
    expect(screen.queryByRole('list', { name: 'Choices' })).not.toBeInTheDocument();
    // The failure stands where the picture would be: no empty picture frame under it, as if a round were still on its way.
    const stage = screen.getByRole('region', { name: 'The mystery Pokémon' });
    expect(stage).toContainElement(alert);
    expect(stage).toHaveAttribute('aria-busy', 'false');
    expect(stage.querySelector('.smp-skeleton-picture')).toBeNull();
    samples.down = null;
    await user.click(within(alert).getByRole('button', { name: /Try again/ }));
    expect(await screen.findByRole('img', { name: SILHOUETTE })).toBeInTheDocument();
    await act(async () => undefined);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
