/**
 * A failed input validation as the API's 400 (interface-spec.md "Errors"; decisions.md section 3):
 * `invalid_request` with `details: {field, issue}` for the first problem found.
 */
import { invalidField, type ApiError } from '../errors';

/**
 * One validation problem, as zod reports it (`ZodError.issues[n]`); also built from the Fastify
 * validation errors of fastify-type-provider-zod (`keyword` is the zod code, `params` the rest).
 */
export interface InputIssue {
  /** zod's issue code, e.g. `invalid_type`, `unrecognized_keys` */
  code: string;
  /** where in the input: object keys and array indexes, outermost first */
  path: readonly PropertyKey[];
  message?: string;
  /** the unknown keys of an `unrecognized_keys` issue */
  keys?: readonly string[];
}

/** How {@link invalidInput} names the field and words the message. */
export interface InvalidInputOptions {
  /**
   * The value that was validated (a JSON object or query parameters). A top-level member absent
   * from it is reported as `is required` instead of zod's type message. Omitted: never.
   */
  input?: Record<string, unknown>;
  /** The field named when the issue is about the input as a whole (empty path). Default `body`. */
  root?: string;
  /** A path put before every field, e.g. `body` gives `body.repository.full_name`. */
  prefix?: string;
  /** The error message. Default `<field>: <issue>`. */
  message?: (field: string, issue: string) => string;
}

/**
 * The 400 `invalid_request` for the first issue of a failed validation, `details: {field, issue}`:
 * - `field`: the issue's path dotted (`settings.aiEnabled`), after `options.prefix`; the first
 *   unknown key for `unrecognized_keys`; `options.root` (default `body`) for an empty path.
 * - `issue`: `is not a known field` for unknown keys; `is required` for a top-level member absent
 *   from `options.input`; else zod's message (`is invalid` when it has none).
 * @param error a `ZodError`, or anything holding zod-style issues (at least one).
 */
export function invalidInput(error: { issues: readonly InputIssue[] }, options: InvalidInputOptions = {}): ApiError {
  const first = error.issues[0];
  const path = (first?.path ?? []).map(String);
  const keys = first?.code === 'unrecognized_keys' && first.keys && first.keys.length > 0 ? first.keys : undefined;
  const parts = [...(options.prefix ? [options.prefix] : []), ...path, ...(keys ? [String(keys[0])] : [])];
  const field = parts.join('.') || (options.root ?? 'body');
  const missing = options.input !== undefined && !keys && path.length === 1 && options.input[path[0]!] === undefined;
  const issue = keys ? 'is not a known field' : missing ? 'is required' : (first?.message ?? 'is invalid');
  return invalidField(field, issue, options.message?.(field, issue));
}
