/**
 * Text every supported database can store (decisions.md section 1: SQLite and PostgreSQL).
 * PostgreSQL refuses the NUL character (U+0000) in `text` values, and a lone UTF-16 surrogate
 * (U+D800–U+DFFF without its pair) has no UTF-8 form (RFC 3629 section 3), so neither may be
 * accepted anywhere a request can put text: they would fail only when written, as a 500.
 */

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored, or null when it can. */
export function unstorableTextIssue(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'contains a lone UTF-16 surrogate (not valid Unicode text)';
  return null;
}

/** `text` with NULs and lone surrogates written as `\uXXXX` escapes, safe to echo in an error. */
function printable(text: string): string {
  return text.replace(new RegExp(`\\u0000|${LONE_SURROGATE.source}`, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Where {@link findUnstorableText} found text that cannot be stored. */
export interface UnstorableText {
  /** Dotted path of the value inside the input (`settings.name`, `items.0`); `''` for the input itself. */
  path: string;
  issue: string;
}

/** Any character that may make text unstorable: a NUL or any UTF-16 surrogate (paired ones pass the exact check). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/** {@link unstorableTextIssue} with a one-pass screen first: most text has no NUL and no surrogate at all. */
function textIssue(text: string): string | null {
  return SUSPECT.test(text) ? unstorableTextIssue(text) : null;
}

/** A finding below the input's root: the path segments are collected innermost first while unwinding. */
interface Finding {
  segments: string[];
  issue: string;
}

/**
 * The first unstorable text in `v`, or null. Module-level and closure-free because every API request
 * runs it over its parameters, query and body; the path is only built when something is found.
 */
function walk(v: unknown, depth: number, maxDepth: number): Finding | null {
  if (typeof v === 'string') {
    const issue = textIssue(v);
    return issue ? { segments: [], issue } : null;
  }
  if (v === null || typeof v !== 'object') return null;
  if (depth >= maxDepth) return { segments: [], issue: `is nested more than ${maxDepth} levels deep` };
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const found = walk(v[i], depth + 1, maxDepth);
      if (found) {
        found.segments.push(String(i));
        return found;
      }
    }
    return null;
  }
  for (const key in v) {
    if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
    const keyIssue = textIssue(key);
    if (keyIssue) return { segments: [printable(key)], issue: `has a member name that ${keyIssue}` };
    const found = walk((v as Record<string, unknown>)[key], depth + 1, maxDepth);
    if (found) {
      found.segments.push(key);
      return found;
    }
  }
  return null;
}

/**
 * Walks a parsed JSON-like value (strings, arrays, plain objects; object keys included) and returns
 * the first string that cannot be stored (see {@link unstorableTextIssue}), or null.
 * Depth is bounded by the caller's parser; values deeper than `maxDepth` (default 64) are reported
 * too, so a hostile input cannot make this recurse without end.
 */
export function findUnstorableText(value: unknown, maxDepth = 64): UnstorableText | null {
  const found = walk(value, 0, maxDepth);
  return found ? { path: found.segments.reverse().join('.'), issue: found.issue } : null;
}
