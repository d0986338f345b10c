import type { ZodType, z } from 'zod';
import { InputError } from './errors';

/** One readable line per problem, e.g. `email: email must be a valid email address`. */
export function describeIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
}

/**
 * Parses untrusted input with a contract schema, or throws an InputError (400) whose message names the first problem
 * and whose details list them all.
 */
export function parseInput<S extends ZodType>(schema: S, input: unknown, what = 'request body'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = describeIssues(result.error);
  const first = issues[0];
  const message = first
    ? first.path && !first.message.startsWith(first.path)
      ? `${first.path}: ${first.message}`
      : first.message
    : `Invalid ${what}`;
  throw new InputError(message, issues);
}
