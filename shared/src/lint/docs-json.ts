/**
 * The linter's rules on the site's configuration file (docs.json, or the older mint.json, at the docs
 * root): like the navigation rules of pages (navigation.ts) they need the page inventory and stay
 * silent without one.
 *
 * - `navigation/missing-page`: a navigation entry (a `pages` item or a group's `root`) names a page
 *   path with no `.mdx`/`.md` file and no generated OpenAPI page (the build's `missing-page` warning,
 *   shared/src/docs/nav/check-navigation.ts). The finding points at the entry and names its JSON path;
 *   a `pages` item's finding has a fix removing the entry (its line and comma, the array keeping its
 *   layout: json-array-edits.ts, as the navigation edits of the desktop do).
 *
 * Entries naming OpenAPI operations (`GET /users`) and entries brought in by `$ref` from other files
 * are not checked here. Text that is not valid JSON has no findings (the editor's JSON Schema check
 * and the config loader report it).
 */
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { applyTextEdits, removeElementEdits } from '../docs/config/json-array-edits';
import { formatJsonPath } from '../docs/config/json-path';
import { isOperationEntry, normalizePagePath } from '../docs/config/page-entry';
import { CONFIG_FILES } from '../docs/config/page-files';
import { visitJsonValues } from '../docs/config/read-json';
import type { InventoryIndex } from '../docs/page-inventory';
import type { LintFinding, LintFix } from './types';

/** The rule ids of this module. */
export const DOCS_JSON_RULES = ['navigation/missing-page'] as const;

/** True when `path` (relative to the docs root) is the site's configuration file, which {@link runDocsJsonChecks} lints. */
export function isSiteConfigFile(path: string): boolean {
  return (CONFIG_FILES as readonly string[]).includes(path);
}

/** A string value of the navigation that names a page: `...pages[n]` or a group's `...root`. */
function isPageEntry(path: readonly (string | number)[]): boolean {
  if (path[0] !== 'navigation') return false;
  const last = path[path.length - 1];
  return (typeof last === 'number' && path[path.length - 2] === 'pages') || last === 'root';
}

/** Offset just past the JSON string token starting at `offset` (its opening quote). */
function stringEnd(text: string, offset: number): number {
  let i = offset + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}

/**
 * The fix removing the array element at `path` (a `pages` item) from `text`, as one replacement
 * spanning the removal's edits; undefined when `path` does not name an array element.
 */
function removeEntryFix(text: string, path: readonly (string | number)[]): LintFix | undefined {
  const index = path[path.length - 1];
  const root = parseTree(text, [], { allowTrailingComma: true });
  const arr = root && findNodeAtLocation(root, path.slice(0, -1) as (string | number)[]);
  if (typeof index !== 'number' || arr?.type !== 'array') return undefined;
  const edits = removeElementEdits(text, arr, index);
  const start = Math.min(...edits.map((e) => e.offset));
  const end = Math.max(...edits.map((e) => e.offset + e.length));
  return { range: [start, end], text: applyTextEdits(text.slice(start, end), edits.map((e) => ({ ...e, offset: e.offset - start }))) };
}

/**
 * The findings of the configuration rules `enabled` says yes to, on `text` (the configuration file,
 * docs.json or mint.json), against the pages of `index`.
 */
export function runDocsJsonChecks(text: string, index: InventoryIndex, enabled: (ruleId: string) => boolean): LintFinding[] {
  if (!enabled('navigation/missing-page')) return [];
  const entries: { path: (string | number)[]; start: number; end: number }[] = [];
  const valid = visitJsonValues(text, (path, offset) => {
    if (text[offset] === '"' && isPageEntry(path)) entries.push({ path: [...path], start: offset, end: stringEnd(text, offset) });
  });
  if (!valid) return [];
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const at = (offset: number) => {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1]! <= offset) line++;
    return { line: line + 1, column: offset - starts[line]! + 1 };
  };
  const findings: LintFinding[] = [];
  for (const entry of entries) {
    const value = JSON.parse(text.slice(entry.start, entry.end)) as string;
    if (isOperationEntry(value)) continue;
    const page = normalizePagePath(value);
    if (page === '' || index.hasPage(page)) continue;
    const start = at(entry.start);
    const end = at(entry.end);
    const fix = removeEntryFix(text, entry.path);
    findings.push({
      ruleId: 'navigation/missing-page',
      severity: 'warning',
      message: `${formatJsonPath(entry.path)} names the page "${page}", which has no file: expected ${page}.mdx or ${page}.md.`,
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
      ...(fix ? { fix } : {}),
    });
  }
  return findings;
}
