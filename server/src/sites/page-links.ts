/**
 * Where a built HTML file names pages: the byte ranges site hosting cuts out for a reader whom the
 * project's access rules or path-scoped IP allowlists refuse those pages (page-filter.ts;
 * decisions.md sections 6 and 9), found in the file itself the first time a reader may need them.
 * Rules change without a build, so nothing is marked for them: the chrome names a page only
 * through a link to it, and shared/src/site/nav-markup.ts says what goes with such a link:
 *
 * - a `<li>` holding nothing but the link (sidebar entries, anchors, switcher and footer entries,
 *   the not-found page's "Start here" list) goes whole;
 * - a link in a group's heading (`<summary>`, `<p class="q-nav-heading">`) or the logo loses its
 *   tags only: its text (the group's title, the site's name) stays;
 * - any other link (previous/next cards, tabs, navbar links) goes;
 * - a sidebar section or nested group whose every link names a page goes when all of them go.
 *
 * The ranges have the shape of the index files' entries (page-entries.ts `FileEntries`: a range
 * goes when the reader is refused every page it names), so one filter and one cutter serve both.
 * Only the chrome is searched, as for audience marks (audience-variants.ts): the page body is
 * repository content, except in the not-found page, which the theme writes whole.
 */
import { decodeEntities } from '@quire/shared/docs/markdown/html';
import { LOGO_CLASS, NAV_GROUP_CLASS, NAV_HEADING_CLASS, NAV_SECTION_CLASS } from '@quire/shared/site/nav-markup';
import { bodySpan, closingEnd } from './audience-variants';
import type { FileEntries, PageRange } from '../deployments/page-entries';

/** A link found in the chrome: bytes `[start, end)` and the page it names (undefined: not a page). */
interface Link {
  start: number;
  end: number;
  page: number | undefined;
}

const LINK_OPEN = '<a ';
const LINK_CLOSE = '</a>';
const ITEM_CLOSE = '</li>';
const HREF = /\shref="([^"]*)"/;
const CLASS = /\sclass="([^"]*)"/;
/** Opening tags a group's heading link follows directly. */
const HEADINGS = ['<summary', `<p class="${NAV_HEADING_CLASS}"`];
/** Opening tags of the sidebar's groups, each up to its class attribute's closing quote. */
const GROUPS: { name: string; open: string }[] = [
  { name: 'div', open: `<div class="${NAV_SECTION_CLASS}"` },
  { name: 'li', open: `<li class="${NAV_GROUP_CLASS}"` },
];

/**
 * Finds the links naming pages in a built HTML file, and what goes with each (see the module comment).
 * @param html the file's bytes (UTF-8; searched through their latin1 view, so offsets are byte offsets)
 * @param pageOf the index of the page a link's target (its `href`, entities decoded) leads to, undefined for anything else
 * @param wholeDocument search the page body too (the not-found page, written by the theme whole)
 * @returns the file's page ranges (indexes from `pageOf`), with `bytes` the file's length
 */
export function findPageLinks(html: Buffer, pageOf: (href: string) => number | undefined, wholeDocument: boolean): FileEntries {
  const text = html.toString('latin1');
  const [bodyStart, bodyEnd] = wholeDocument ? [-1, -1] : bodySpan(text);
  const links: Link[] = [];
  const ranges: PageRange[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf(LINK_OPEN, from);
    if (at === -1) break;
    if (at > bodyStart && at < bodyEnd) {
      from = bodyEnd;
      continue;
    }
    const openEnd = text.indexOf('>', at) + 1;
    const close = openEnd === 0 ? -1 : text.indexOf(LINK_CLOSE, openEnd);
    if (close === -1) break;
    const end = close + LINK_CLOSE.length;
    from = end;
    const tag = text.slice(at, openEnd);
    const href = HREF.exec(tag)?.[1];
    const page = href === undefined ? undefined : pageOf(decodeEntities(Buffer.from(href, 'latin1').toString('utf8')));
    links.push({ start: at, end, page });
    if (page === undefined) continue;
    const pages = [page];
    const before = text.lastIndexOf('<', at - 1);
    const opener = before === -1 || text.charCodeAt(at - 1) !== 0x3e /* > */ ? '' : text.slice(before, at);
    if (/^<li[\s>]/.test(opener) && text.startsWith(ITEM_CLOSE, end)) ranges.push({ start: before, end: end + ITEM_CLOSE.length, pages });
    else if (HEADINGS.some((h) => opener.startsWith(h)) || CLASS.exec(tag)?.[1] === LOGO_CLASS) {
      ranges.push({ start: at, end: openEnd, pages }, { start: close, end, pages });
    } else ranges.push({ start: at, end, pages });
  }
  if (links.some((l) => l.page !== undefined)) ranges.push(...groupRanges(text, links, bodyStart, bodyEnd));
  ranges.sort((a, b) => a.start - b.start || b.end - a.end);
  const named = new Set<number>();
  for (const l of links) if (l.page !== undefined) named.add(l.page);
  return { bytes: html.length, ranges, pages: [...named].sort((a, b) => a - b) };
}

/** The sidebar groups (outside the body) whose every link names a page, each as a range naming all of them. */
function groupRanges(text: string, links: readonly Link[], bodyStart: number, bodyEnd: number): PageRange[] {
  const out: PageRange[] = [];
  for (const { name, open } of GROUPS) {
    let from = 0;
    for (;;) {
      const at = text.indexOf(open, from);
      if (at === -1) break;
      from = at + open.length;
      if (at > bodyStart && at < bodyEnd) continue;
      const tagEnd = text.indexOf('>', at);
      const end = tagEnd === -1 ? -1 : closingEnd(text, name, tagEnd + 1);
      if (end === -1) continue;
      const inside = links.filter((l) => l.start > at && l.end <= end);
      if (inside.length === 0 || inside.some((l) => l.page === undefined)) continue;
      out.push({ start: at, end, pages: [...new Set(inside.map((l) => l.page!))] });
    }
  }
  return out;
}
