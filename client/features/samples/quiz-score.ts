import * as v from 'valibot';
import { storedValue, useStored } from '@/lib/stored-value';

/**
 * The quiz's score, kept by the browser (localStorage through `storedValue`: read back through a
 * schema, shared with other tabs): right answers out of rounds played, the current streak of right
 * answers and the best streak ever.
 */
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const ScoreSchema = v.object({ score: count, played: count, streak: count, best: count });
export type QuizScore = v.InferOutput<typeof ScoreSchema>;

export const NO_SCORE: QuizScore = { score: 0, played: 0, streak: 0, best: 0 };
export const QUIZ_SCORE_KEY = 'frontdesk.quiz.score';

const scoreStore = storedValue<QuizScore>(QUIZ_SCORE_KEY, ScoreSchema, NO_SCORE);

export const useQuizScore = () => useStored(scoreStore);

/** A right answer adds to the score and the streak (and the best streak when it passes it); a wrong one ends the streak. */
export function scoreAnswer(score: QuizScore, right: boolean): QuizScore {
  const streak = right ? score.streak + 1 : 0;
  return { score: score.score + (right ? 1 : 0), played: score.played + 1, streak, best: Math.max(score.best, streak) };
}

export function recordAnswer(right: boolean): QuizScore {
  const next = scoreAnswer(scoreStore.read(), right);
  scoreStore.write(next);
  return next;
}

/** Starts the score and streak again; the best streak stays unless `best` says so. */
export function resetScore({ best = false }: { best?: boolean } = {}): void {
  const current = scoreStore.read();
  scoreStore.write({ ...NO_SCORE, best: best ? 0 : current.best });
}
