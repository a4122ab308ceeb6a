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
  /** A name put before every field, e.g. `body` gives `body.repository.full_name` (a plain name: letters, digits, `_`, `$`, `-`). */
  prefix?: string;
  /** The error message. Default `<field>: <issue>`. */
  message?: (field: string, issue: string) => string;
}

/** A key written after a dot: a name (letters, digits, `_`, `$`, `-`) or an array index. */
const PLAIN_KEY = /^(?:[A-Za-z_$][\w$-]*|\d+)$/;

/**
 * A validation path as one field name: keys and indexes joined by dots (`settings.sourceRepos.0.url`);
 * a key that is not a plain name (a record key such as a path glob) is written as a quoted string in
 * brackets, so dots or slashes in it stay readable: `settings.sourceRepos.0.globs["src/*.ts"].1`.
 * @param path object keys and array indexes, outermost first.
 */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    const key = String(part);
    if (typeof part !== 'number' && !PLAIN_KEY.test(key)) out += `[${JSON.stringify(key)}]`;
    else out += out === '' ? key : `.${key}`;
  }
  return out;
}

/**
 * The 400 `invalid_request` for the first issue of a failed validation, `details: {field, issue}`:
 * - `field`: the issue's path dotted (`settings.aiEnabled`; {@link fieldPath}), after `options.prefix`; the first
 *   unknown key for `unrecognized_keys`; `options.root` (default `body`) for an empty path.
 * - `issue`: `is not a known field` for unknown keys; `is required` for a top-level member absent
 *   from `options.input`; else zod's message (`is invalid` when it has none).
 * @param error a `ZodError`, or anything holding zod-style issues (at least one).
 */
export function invalidInput(error: { issues: readonly InputIssue[] }, options: InvalidInputOptions = {}): ApiError {
  const first = error.issues[0];
  const path = first?.path ?? [];
  const keys = first?.code === 'unrecognized_keys' && first.keys && first.keys.length > 0 ? first.keys : undefined;
  const parts = [...(options.prefix ? [options.prefix] : []), ...path, ...(keys ? [String(keys[0])] : [])];
  const field = fieldPath(parts) || (options.root ?? 'body');
  const missing = options.input !== undefined && !keys && path.length === 1 && options.input[String(path[0])] === undefined;
  const issue = keys ? 'is not a known field' : missing ? 'is required' : (first?.message ?? 'is invalid');
  return invalidField(field, issue, options.message?.(field, issue));
}
