import './samples.css';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLoaderData } from 'react-router';
import { useSpinDelay } from 'spin-delay';
import { quizReads } from '@pages/samples.reads';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { isApiError } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import type { Loaded } from '@/lib/reads';
import { routeReads } from '@/lib/route-reads';
import { SampleFailure } from './components/sample-failure';
import { SampleImage } from './components/sample-image';
import { StaleNotice } from './components/stale-notice';
import { recordAnswer, resetScore, useQuizScore } from './quiz-score';
import { displayName, drawRound, type QuizRound } from './samples.api';

type Data = { first: Loaded<QuizRound> };

const reads = routeReads(quizReads);

/** `/quesg`: "Who's that Pokémon?" — the first round is drawn before the page shows (from the first page it declares, then a random one). */
export async function loader(): Promise<Data> {
  try {
    return { first: { data: await drawRound() } };
  } catch (error) {
    if (isApiError(error, 401) || isApiError(error, 403)) throw error;
    return { first: { error } };
  }
}

/** The rounds live in the page: running the loader again (a click on the same link) would only draw one nobody sees. */
export const shouldRevalidate = () => false;

export const handle = { title: 'Who’s that Pokémon?', ...reads.handle };

const ANSWER_KEYS = ['1', '2', '3', '4'];

/** Keys typed into a field, or with a modifier, are not quiz answers. */
function isTyping(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return event.ctrlKey || event.metaKey || event.altKey || !!target?.closest('input, textarea, select, [contenteditable="true"]');
}

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const [round, setRound] = useState<QuizRound | undefined>(loaded.first.data);
  const [error, setError] = useState<unknown>(loaded.first.error);
  const [picked, setPicked] = useState<number | null>(null);
  const [drawing, setDrawing] = useState(false);
  const showDrawing = useSpinDelay(drawing, { delay: 300, minDuration: 300, ssr: false });
  const score = useQuizScore();
  const nextRef = useRef<HTMLButtonElement>(null);
  const optionsRef = useRef<HTMLOListElement>(null);
  const focusOptions = useRef(false);
  const answered = picked !== null;
  const right = round !== undefined && picked === round.answer.id;

  const answer = useCallback(
    (id: number) => {
      if (!round || picked !== null || drawing) return;
      setPicked(id);
      recordAnswer(id === round.answer.id);
    },
    [round, picked, drawing],
  );

  const next = useCallback(async () => {
    if (drawing) return;
    // The "Next round" button goes away with the answer: the focus goes on to the new choices.
    focusOptions.current = document.activeElement === nextRef.current || document.activeElement === document.body;
    setDrawing(true);
    try {
      const drawn = await drawRound();
      setRound(drawn);
      setPicked(null);
      setError(undefined);
    } catch (err) {
      setError(err);
    } finally {
      setDrawing(false);
    }
  }, [drawing]);

  // After an answer the focus moves to "Next round", so Enter (or Space) plays on.
  useEffect(() => {
    if (answered) nextRef.current?.focus();
  }, [answered]);
  useEffect(() => {
    if (!focusOptions.current || !round) return;
    focusOptions.current = false;
    optionsRef.current?.querySelector('button')?.focus();
  }, [round]);

  // Keys 1–4 answer; N draws the next round once this one is answered.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isTyping(event) || !round) return;
      const index = ANSWER_KEYS.indexOf(event.key);
      if (index >= 0 && index < round.options.length && !answered) {
        event.preventDefault();
        answer(round.options[index]!.id);
      } else if ((event.key === 'n' || event.key === 'N') && answered) {
        event.preventDefault();
        void next();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [round, answered, answer, next]);

  const answerName = round ? displayName(round.answer.name) : '';
  const verdict = !round || !answered ? '' : right ? `Right! It’s ${answerName}.` : `Not quite — it’s ${answerName}.`;

  return (
    <div className="stack-lg samples">
      <PageHeader
        eyebrow="Samples"
        title="Who’s that Pokémon?"
        actions={
          <AppLink to={paths.pokemonList} className="btn">
            <Icon name="ball" size={18} /> Browse the Pokédex
          </AppLink>
        }
      >
        <p>Name the Pokémon from its silhouette. Choose one of four names with the mouse, or press 1 to 4; press N for the next round.</p>
      </PageHeader>

      {error && round ? <SampleFailure error={error} what="the next round" service="pokemon" refresh={false} onRetry={() => void next()} retrying={drawing} /> : null}

      <StaleNotice freshness={round?.freshness} service="pokemon" />

      <div className="smp-quiz">
        <section className="card smp-quiz-stage" aria-labelledby="quiz-question" aria-busy={drawing}>
          <h2 id="quiz-question" className="visually-hidden">
            The mystery Pokémon
          </h2>
          {/*
            No round to show (the first could not be drawn): the failure stands where the picture would be.
            An empty picture frame there looked like a round still on its way.
          */}
          {!round && error ? (
            <SampleFailure error={error} what="a round" service="pokemon" refresh={false} onRetry={() => void next()} retrying={drawing} />
          ) : (
            <div className={`smp-quiz-picture${answered ? ' is-revealed' : ''}`}>
              {showDrawing || !round ? (
                <span className="smp-skeleton-picture smp-picture-quiz" aria-hidden="true" />
              ) : (
                <SampleImage key={round.id} src={round.answer.image} alt={answered ? answerName : 'The mystery Pokémon’s silhouette'} size="quiz" silhouette={!answered} eager />
              )}
            </div>
          )}

          <p className={`smp-verdict${answered ? (right ? ' is-right' : ' is-wrong') : ''}`} role="status" aria-live="polite">
            {answered ? <Icon name={right ? 'check' : 'cross'} size={20} /> : null}
            {verdict}
          </p>

          {round ? (
            <ol className="smp-options" ref={optionsRef} aria-label="Choices">
              {round.options.map((option, i) => {
                const isAnswer = option.id === round.answer.id;
                const state = !answered ? '' : isAnswer ? ' is-answer' : option.id === picked ? ' is-picked' : '';
                return (
                  <li key={option.id}>
                    <button type="button" className={`smp-option${state}`} onClick={() => answer(option.id)} disabled={answered || drawing} aria-keyshortcuts={String(i + 1)}>
                      <kbd aria-hidden="true">{i + 1}</kbd>
                      <span className="smp-option-name">{displayName(option.name)}</span>
                      {answered && isAnswer ? <span className="visually-hidden"> (the answer)</span> : null}
                      {answered && !isAnswer && option.id === picked ? <span className="visually-hidden"> (your choice)</span> : null}
                      {answered && (isAnswer || option.id === picked) ? <Icon name={isAnswer ? 'check' : 'cross'} size={18} /> : null}
                    </button>
                  </li>
                );
              })}
            </ol>
          ) : null}

          {answered ? (
            <div className="button-row">
              <button ref={nextRef} type="button" className="btn btn-primary" onClick={() => void next()} disabled={drawing} aria-busy={drawing} aria-keyshortcuts="N">
                {drawing ? 'Drawing…' : 'Next round'}
              </button>
            </div>
          ) : null}
        </section>

        <aside className="card smp-score" aria-labelledby="score-title">
          <h2 id="score-title" className="card-heading">
            Your score
          </h2>
          <dl className="smp-score-facts">
            <div>
              <dt>Score</dt>
              <dd className="tabular">
                {score.score} <span className="muted">of {score.played}</span>
              </dd>
            </div>
            <div>
              <dt>Streak</dt>
              <dd className="tabular">{score.streak}</dd>
            </div>
            <div>
              <dt>Best streak</dt>
              <dd className="tabular">{score.best}</dd>
            </div>
          </dl>
          <p className="muted small">Kept in this browser.</p>
          {score.played > 0 ? (
            <button type="button" className="link-button" onClick={() => resetScore()}>
              Start the score again
            </button>
          ) : null}
        </aside>
      </div>
    </div>
  );
}
