import * as v from 'valibot';
import { describeEndpoint, type Endpoint } from '@contracts/endpoint.contract';

/**
 * Development's and the tests' check of every answer against its endpoint's contract. Loaded by the
 * fetch helper only where it runs (client/lib/api-client.ts): production skips it.
 */

/** The response did not match the endpoint's contract. */
export class ContractError extends Error {
  override readonly name = 'ContractError';
  constructor(readonly endpoint: string, readonly issues: { path: string; message: string }[]) {
    super(`${endpoint} answered a body its contract does not allow: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
}

/** Throws a `ContractError` naming every field of `data` the endpoint's response schema refuses. */
export function checkAnswer(endpoint: Endpoint, data: unknown): void {
  const result = v.safeParse(endpoint.response, data);
  if (result.success) return;
  throw new ContractError(
    describeEndpoint(endpoint),
    result.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '(body)', message: issue.message })),
  );
}
