/**
 * "Search in files" of Quire Desktop: a text or RE2 regular expression search over the text files
 * of an opened workspace as stored locally (each file's local text: edits included, files deleted
 * here left out, binary files skipped). Patterns run on RE2 (shared/src/lint/safe-pattern.ts), in
 * linear time, so a user's regex cannot hang the core. Lines are matched one at a time (`^` and `$`
 * are a line's ends; a match does not span lines).
 */
import { literalPattern, PatternError, searchPattern, type SafePattern } from '@quire/shared/lint/safe-pattern';
import { CoreError } from './core-error';
import type { LocalStore } from './store';

/** At most this many matches are answered; the answer says when there were more. */
export const SEARCH_MATCH_CAP = 500;
/** A line preview is cut to about this many characters around its match. */
const PREVIEW_CHARS = 160;
/** Context kept before the match when a long line is cut, in characters. */
const PREVIEW_LEAD = 40;

/** What to search for. */
export interface SearchQuery {
  /** the text (or, with `regex`, the RE2 pattern) to find; not empty */
  query: string;
  /** match letter case exactly (default false) */
  caseSensitive?: boolean;
  /** `query` is an RE2 regular expression (default false: plain text) */
  regex?: boolean;
}

/** One match: where it is (1-based line and column, UTF-16 code units) and its line's text. */
export interface SearchMatch {
  line: number;
  column: number;
  /** the match's length */
  length: number;
  /** the line, cut to about {@link PREVIEW_CHARS} characters around the match */
  preview: string;
  /** where the match lies in `preview` (0-based, end exclusive) */
  previewStart: number;
  previewEnd: number;
}

/** The answer: matches grouped by file (files sorted by path, matches in text order). */
export interface SearchResult {
  files: { path: string; matches: SearchMatch[] }[];
  /** the number of matches answered */
  matchCount: number;
  /** true when the search stopped at {@link SEARCH_MATCH_CAP} matches */
  capped: boolean;
  /** a sentence for the user when capped, else null */
  message: string | null;
}

function previewOf(line: string, start: number, end: number): Pick<SearchMatch, 'preview' | 'previewStart' | 'previewEnd'> {
  const from = line.length <= PREVIEW_CHARS || start <= PREVIEW_LEAD ? 0 : start - PREVIEW_LEAD;
  const to = Math.min(line.length, Math.max(from + PREVIEW_CHARS, end));
  const cut = line.slice(from, to);
  const lead = cut.length - cut.trimStart().length;
  return { preview: cut.trim(), previewStart: start - from - lead, previewEnd: Math.min(end, to) - from - lead };
}

/**
 * Searches the text files of `projectId`'s workspace for `q`.
 * @throws CoreError NOT_FOUND when the project is not open; BAD_REQUEST when `q.regex` and the
 *   pattern is not valid RE2 (the message names the pattern and says why)
 */
export function searchWorkspace(store: LocalStore, projectId: string, q: SearchQuery): SearchResult {
  if (!store.workspace(projectId)) throw new CoreError('NOT_FOUND', 'Open the project first.');
  let pattern: SafePattern;
  try {
    pattern = searchPattern(q.regex ? q.query : literalPattern(q.query), !q.caseSensitive);
  } catch (err) {
    if (err instanceof PatternError) throw new CoreError('BAD_REQUEST', err.message);
    throw err;
  }
  const files: SearchResult['files'] = [];
  let matchCount = 0;
  let capped = false;
  outer: for (const f of store.files(projectId)) {
    if (f.content === null) continue;
    const found: SearchMatch[] = [];
    const lines = f.content.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      for (const m of pattern.matches(line)) {
        if (matchCount === SEARCH_MATCH_CAP) {
          capped = true;
          if (found.length) files.push({ path: f.path, matches: found });
          break outer;
        }
        found.push({ line: i + 1, column: m.start + 1, length: m.end - m.start, ...previewOf(line, m.start, m.end) });
        matchCount++;
      }
    }
    if (found.length) files.push({ path: f.path, matches: found });
  }
  const message = capped ? `Showing the first ${SEARCH_MATCH_CAP} matches; there are more. Make the search more precise to see them all.` : null;
  return { files, matchCount, capped, message };
}
