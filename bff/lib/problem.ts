import type { Response } from 'express';
import type { Problem } from '../contracts/problem.contract';
import { statusTitle } from './http-error';

/** Writes the one error shape of the API (docs/ARCHITECTURE.md "API conventions"). */
export function sendProblem(res: Response, status: number, detail: string, extra: Partial<Problem> = {}): void {
  const problem: Problem = {
    type: extra.type ?? 'about:blank',
    title: extra.title ?? statusTitle(status),
    status,
    detail,
    ...(extra.errors ? { errors: extra.errors } : {}),
  };
  res.status(status).type('application/problem+json').send(JSON.stringify(problem));
}
