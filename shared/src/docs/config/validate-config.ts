import type { z } from 'zod';
import { DocsError } from '../types';
import { describeJsonType, describeJsonValue, formatJsonPath, valueAt, type JsonPath } from './json-path';
import { locateJsonPath } from './read-json';
import type { ResolvedJson } from './resolve-refs';

type Issue = z.core.$ZodIssue;

/**
 * The issue to report for a failed union: the branch the value was meant for (the one whose
 * failure is not "wrong type at the top"), followed down; else the union's own issue.
 */
function innermost(issue: Issue): Issue {
  let current = issue;
  for (;;) {
    if (current.code !== 'invalid_union') return current;
    const branch = current.errors.find((b) => b.length > 0 && !b.some((i) => i.path.length === 0 && i.code === 'invalid_type'));
    if (!branch) return current;
    const next = branch[0]!;
    current = { ...next, path: [...current.path, ...next.path] } as Issue;
  }
}

/** The file a value at `path` was written in (after `$ref`s), its path there, and the path of the `$ref` that brought it. */
function locate(root: unknown, path: JsonPath, rootFile: string, origins: ResolvedJson['origins']) {
  let best = { origin: { file: rootFile, path: [] as JsonPath }, depth: 0 };
  let enteredFile = 0;
  let node = root;
  for (let depth = 0; ; depth++) {
    if (typeof node === 'object' && node !== null) {
      const origin = origins.get(node);
      if (origin) {
        if (origin.file !== best.origin.file) enteredFile = depth;
        best = { origin, depth };
      }
    }
    if (depth === path.length) break;
    node = valueAt(node, [path[depth]!]);
  }
  return { file: best.origin.file, path: [...best.origin.path, ...path.slice(best.depth)], refAt: path.slice(0, enteredFile) };
}

/**
 * Validates a resolved config against a zod schema.
 * @returns the parsed value
 * @param source origins and texts of the files read ({@link loadJsonWithRefs})
 * @throws DocsError for the first problem, naming the file the value was written in (following
 *   `$ref`s), the JSON path (`field`; `line`/`column` where the value starts) and what was expected, e.g.
 *   `docs.json: navigation.tabs[1].groups must be an array of groups, got a string`
 */
export function validateConfig<T>(
  schema: z.ZodType<T>,
  value: unknown,
  rootFile: string,
  source: Pick<ResolvedJson, 'origins' | 'texts'>,
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = innermost(result.error.issues[0]!);
  const path = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
  const actual = valueAt(value, path);
  const got = issue.code === 'invalid_type' ? describeJsonType(actual) : describeJsonValue(actual);
  const where = locate(value, path, rootFile, source.origins);
  const field = formatJsonPath(where.path);
  const via = where.file !== rootFile ? ` (included by "$ref" at ${formatJsonPath(where.refAt)} in ${rootFile})` : '';
  const expected = issue.message.startsWith('must') ? issue.message : `is invalid: ${issue.message}`;
  const text = source.texts.get(where.file);
  const at = text === undefined ? undefined : locateJsonPath(text, where.path);
  throw new DocsError(`${where.file}: ${field} ${expected}, got ${got}${via}`, where.file, at?.line, at?.column, field);
}
