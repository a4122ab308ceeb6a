/**
 * Where a hand-written page mentions something an API change touched (the docs agent, decisions.md
 * section 11: pages "that mention a changed operation, parameter or field are flagged with the exact
 * lines"). Pure: no I/O.
 *
 * A term is matched as a whole token: the characters around it may not be letters, digits, `_` or
 * `-` (so `per_page` is not found in `per_page_max`). A term that is a plain lowercase word (`name`,
 * `limit`: prose uses them) counts only inside code: an inline code span or a fenced code block.
 * Identifiers (`per_page`, `pageSize`, `v2`), paths (`/users/{id}`) and `METHOD /path` count anywhere.
 */
import type { SpecChange } from './openapi/spec-diff';

/** A term to look for, with why it matters (shown to the writer). */
export interface MentionTerm {
  term: string;
  reason: string;
}

/** One line of a page that mentions a term. */
export interface Mention {
  /** 1-based line number */
  line: number;
  term: string;
  reason: string;
}

/** Most mentions reported per page. */
export const MAX_MENTIONS_PER_PAGE = 50;

/**
 * The terms a page may mention for each change that can make it wrong: a removed operation (its
 * `METHOD /path` and path), and a removed, renamed or changed parameter or field (its old name; for
 * a field, the last segment of its path). Added things make no page wrong: they have no term.
 * Deduplicated by term (the first reason wins).
 */
export function mentionTerms(changes: readonly SpecChange[]): MentionTerm[] {
  const out = new Map<string, string>();
  const add = (term: string, reason: string) => {
    if (term.length >= 2 && !out.has(term)) out.set(term, reason);
  };
  for (const c of changes) {
    if (c.kind === 'added') continue;
    if (c.subject === 'operation') {
      add(c.operation, c.summary);
      add(c.operation.slice(c.operation.indexOf(' ') + 1), c.summary);
      continue;
    }
    const old = c.previous ?? c.name ?? '';
    add(c.subject === 'parameter' ? old : lastSegment(old), c.summary);
  }
  return [...out].map(([term, reason]) => ({ term, reason }));
}

/** `email` for `user.email`, `id` for `items[].id`. */
function lastSegment(path: string): string {
  const seg = path.slice(path.lastIndexOf('.') + 1);
  return seg.replace(/\[\]$/, '');
}

const PLAIN_WORD = /^[a-z]+$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The lines of `text` that mention one of `terms` (see the module comment), in line order, one entry
 * per line and term, at most {@link MAX_MENTIONS_PER_PAGE}.
 */
export function findMentions(text: string, terms: readonly MentionTerm[]): Mention[] {
  const matchers = terms.map((t) => ({
    ...t,
    re: new RegExp(`(?<![A-Za-z0-9_-])${escapeRegExp(t.term)}(?![A-Za-z0-9_-])`),
    codeOnly: PLAIN_WORD.test(t.term),
  }));
  const out: Mention[] = [];
  let fence: string | null = null;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length && out.length < MAX_MENTIONS_PER_PAGE; i++) {
    const line = lines[i]!;
    const opened = FENCE.exec(line);
    if (opened) {
      if (fence === null) fence = opened[1]!;
      else if (opened[1]!.startsWith(fence[0]!) && opened[1]!.length >= fence.length) fence = null;
      continue;
    }
    const inCode = fence !== null;
    for (const m of matchers) {
      if (out.length >= MAX_MENTIONS_PER_PAGE) break;
      const found = m.codeOnly && !inCode ? codeSpans(line).some((span) => m.re.test(span)) : m.re.test(line);
      if (found) out.push({ line: i + 1, term: m.term, reason: m.reason });
    }
  }
  return out;
}

/** The contents of a line's inline code spans (`` `x` ``, ``` ``x`` ```). */
function codeSpans(line: string): string[] {
  const spans: string[] = [];
  const re = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) spans.push(m[2]!);
  return spans;
}
