import * as v from 'valibot';

/** RFC 9457 problem details, the one error shape of every /api response. */
export const ProblemSchema = v.object({
  type: v.string(),
  title: v.string(),
  status: v.number(),
  detail: v.optional(v.string()),
  errors: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))),
});
export type Problem = v.InferOutput<typeof ProblemSchema>;
export type ProblemFieldError = NonNullable<Problem['errors']>[number];

/** The schema of the field at `keys` inside `schema` (through pipes, optional and nullable wrappers, objects and arrays). */
function fieldSchema(schema: v.GenericSchema, keys: readonly unknown[]): v.GenericSchema | undefined {
  let at: unknown = schema;
  for (const key of keys) {
    // A piped schema carries its first schema's parts (`entries`, `item`); wrappers keep theirs in `wrapped`.
    while (at && typeof at === 'object' && 'wrapped' in at) at = at.wrapped;
    if (at && typeof at === 'object' && 'entries' in at && typeof key === 'string') at = (at.entries as Record<string, unknown>)[key];
    else if (at && typeof at === 'object' && 'item' in at && typeof key === 'number') at = at.item;
    else return undefined;
  }
  return at && typeof at === 'object' && '~run' in at ? (at as v.GenericSchema) : undefined;
}

/**
 * valibot words a missing key as 'Invalid key: Expected "x" but received undefined'. The field's
 * own schema says what to enter instead (the contract's words for an empty field, "Enter the
 * owner’s name"); a field without words of its own is "Required".
 */
function missingFieldMessage(schema: v.GenericSchema, issue: v.BaseIssue<unknown>): string {
  const field = fieldSchema(schema, issue.path?.map((item) => item.key) ?? []);
  const own = field ? v.safeParse(field, undefined).issues?.[0]?.message : undefined;
  return own && !own.startsWith('Invalid ') ? own : 'Required';
}

/**
 * A refused part of a request (`params`, `query`, `body`) as the problem's field errors, in the
 * contract's words: the BFF answers with it, and the client tests' fake BFF says the same.
 */
export const fieldErrorOf =
  (part: 'params' | 'query' | 'body', schema: v.GenericSchema) =>
  (issue: v.BaseIssue<unknown>): ProblemFieldError => {
    const path = v.getDotPath(issue);
    const message = issue.kind === 'schema' && issue.received === 'undefined' ? missingFieldMessage(schema, issue) : issue.message;
    return { path: path ? `${part}.${path}` : part, message };
  };
