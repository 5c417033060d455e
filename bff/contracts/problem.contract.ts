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
