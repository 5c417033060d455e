import type { Response } from 'express';
import type { Problem } from '../contracts/problem.contract';
import { statusTitle } from './http-error';

/** The one error shape of the API (docs/ARCHITECTURE.md "API conventions"), as the JSON text sent. */
export function problemJson(status: number, detail: string, extra: Partial<Problem> = {}): string {
  const problem: Problem = {
    type: extra.type ?? 'about:blank',
    title: extra.title ?? statusTitle(status),
    status,
    detail,
    ...(extra.errors ? { errors: extra.errors } : {}),
  };
  return JSON.stringify(problem);
}

/** Writes a problem as an Express answer. */
export function sendProblem(res: Response, status: number, detail: string, extra: Partial<Problem> = {}): void {
  res.status(status).type('application/problem+json').send(problemJson(status, detail, extra));
}
