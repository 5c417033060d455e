import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as v from 'valibot';
import type { ProblemFieldError } from '../contracts/problem.contract';
import { badRequest } from './http-error';

type Part = 'params' | 'query' | 'body';
type Schemas = Partial<Record<Part, v.GenericSchema>>;
export type ValidInput<S extends Schemas> = { [K in keyof S]: S[K] extends v.GenericSchema ? v.InferOutput<S[K]> : never };

const issueToError = (part: Part) => (issue: v.BaseIssue<unknown>): ProblemFieldError => {
  const path = v.getDotPath(issue);
  // valibot words a missing key as 'Invalid key: Expected "x" but received undefined'; users read "Required".
  const message = issue.kind === 'schema' && issue.received === 'undefined' ? 'Required' : issue.message;
  return { path: path ? `${part}.${path}` : part, message };
};

/**
 * The one validation step of the API: parses params, query and body against contract schemas and
 * hands the typed result to the handler; anything invalid is a 400 problem listing each field.
 */
export function validate<S extends Schemas>(
  schemas: S,
  handler: (input: ValidInput<S>, req: Request, res: Response, next: NextFunction) => unknown,
): RequestHandler {
  return async (req, res, next) => {
    const input: Record<string, unknown> = {};
    const errors: ProblemFieldError[] = [];
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      // A missing JSON body arrives as undefined; validate it as an empty object so fields report "Required".
      const raw = part === 'body' ? (req.body ?? {}) : req[part];
      const result = v.safeParse(schema, raw);
      if (result.success) input[part] = result.output;
      else errors.push(...result.issues.map(issueToError(part)));
    }
    if (errors.length > 0) throw badRequest('The request has invalid fields.', errors);
    await handler(input as ValidInput<S>, req, res, next);
  };
}
