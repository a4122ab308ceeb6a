/**
 * How far a repository may make the docs engine expand its files (decisions.md section 10: a build
 * runs untrusted repositories, so their cost must be bounded by the size of what they hold, not by
 * what they multiply). Each cap is far above anything a real site reaches (the trigger-dev,
 * agentops and pezzo corpora stay under a tenth of each) and low enough that hitting it costs
 * seconds and tens of megabytes, not minutes and gigabytes. Counting is done while expanding, never
 * by building the value first. Sizes are in characters (UTF-16 code units, as `String.length`).
 *
 * Markdown (`markdown/snippets.ts`, `markdown/static-eval.ts`): exceeding a cap fails the build with
 * a DocsError naming the file (and line). Config (`config/resolve-refs.ts`): same. OpenAPI pages
 * (`openapi/`): the page degrades instead (a truncated example, "too large to show" fields) with an
 * `openapi` warning, since a spec is often generated and a huge schema should not fail a build.
 */

/** Deepest nesting of snippets inside snippets on one page (the page itself is level 0). */
export const MAX_SNIPPET_DEPTH = 20;

/**
 * Characters one page may expand to through snippets and inserted values: every snippet inclusion
 * counts its file's length, every `{value}`, `{children}` or prop inserted counts its size.
 */
export const MAX_PAGE_EXPANSION_CHARS = 5_000_000;

/** Characters of one static value (`export const a = ...`, a prop, a template string) in MDX. */
export const MAX_STATIC_VALUE_CHARS = 1_000_000;

/** Characters of all static `export` values evaluated for one page (its own and its snippets'). */
export const MAX_PAGE_STATIC_CHARS = 5_000_000;

/** Longest chain of config files included through `$ref` (docs.json → a.json → b.json ...). */
export const MAX_REF_DEPTH = 32;

/** `$ref` expansions in one config, whatever their size. */
export const MAX_REF_EXPANSIONS = 2000;

/**
 * Size of a config after `$ref` resolution: each string, number, key and literal counts its
 * characters, each value 1 more (close to its JSON length).
 */
export const MAX_CONFIG_RESOLVED_CHARS = 10_000_000;

/** Characters of one example (request body, response, code sample payload) on an OpenAPI page. */
export const MAX_OPENAPI_EXAMPLE_CHARS = 200_000;

/**
 * Characters of schema fields (parameters, body, responses, schema pages) and examples on one
 * OpenAPI page; past it, nested fields are replaced by a note and examples by a truncated copy.
 */
export const MAX_OPENAPI_PAGE_CHARS = 4_000_000;

/** `allOf` members folded into one schema, counting nested `allOf`s (OpenAPI schema reading). */
export const MAX_ALLOF_MEMBERS = 64;

/**
 * Schemas visited to write one type label (`A | B | C[]`), counting nested variants and items (their `allOf` members count
 * towards MAX_ALLOF_MEMBERS together).
 */
export const MAX_TYPE_LABEL_VISITS = 64;

/**
 * Thrown by expanders that do not know which file they work on (static-eval.ts); callers catch it
 * and throw a DocsError naming the file and line. `message` is phrased for a writer, without the file.
 */
export class ExpansionLimitError extends Error {
  override name = 'ExpansionLimitError';
}

/** `5 MB`, `200 KB`, `900 characters`: a cap as a writer reads it (1 KB = 1000 characters). */
export function formatSize(chars: number): string {
  if (chars >= 1_000_000) return `${+(chars / 1_000_000).toFixed(1)} MB`;
  if (chars >= 1_000) return `${+(chars / 1_000).toFixed(1)} KB`;
  return `${chars} characters`;
}
