/**
 * A hit's snippet (SearchHit.snippet): an excerpt of the section's text around the first word the
 * query matched, HTML-escaped, each matched word wrapped in `<mark>`, `…` where text was cut.
 */
import { escapeHtml } from '../docs/markdown/html';
import { displayText } from './markdown-text';
import { tokenSpans, type TokenSpan } from './tokens';

/** Characters of text in a snippet (about two lines of the search dialog). */
export const SNIPPET_CHARS = 180;
/** Characters shown before the first match. */
const LEAD_CHARS = 50;

/**
 * The snippet of `text` for a query whose matched terms `matches` recognises.
 * @param matches whether a term (folded, as tokens.ts makes them) is one the query matched
 */
export function makeSnippet(blockText: string, matches: (term: string) => boolean): string {
  if (!blockText) return '';
  // the section's block marks and line breaks (markdown-text.ts) read as spaces
  const text = displayText(blockText);
  const hit = (span: TokenSpan) => span.terms.some(matches);
  let first: TokenSpan | undefined;
  for (const span of tokenSpans(text)) {
    if (hit(span)) {
      first = span;
      break;
    }
  }
  let start = 0;
  if (first && first.start > LEAD_CHARS) {
    const space = text.indexOf(' ', first.start - LEAD_CHARS);
    start = space >= 0 && space < first.start ? space + 1 : first.start;
  }
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start + SNIPPET_CHARS / 2) end = space;
  }
  let out = start > 0 ? '…' : '';
  let at = start;
  for (const span of tokenSpans(text, start)) {
    if (span.start >= end) break;
    if (!hit(span)) continue;
    const stop = Math.min(span.end, end);
    out += `${escapeHtml(text.slice(at, span.start))}<mark>${escapeHtml(text.slice(span.start, stop))}</mark>`;
    at = stop;
  }
  out += escapeHtml(text.slice(at, end));
  out = out.replace(/\s{2,}/g, ' ').trim();
  return end < text.length ? `${out}…` : out;
}
