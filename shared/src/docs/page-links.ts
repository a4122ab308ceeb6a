/**
 * Rewriting a page's links to another page that moved: Markdown links (`[text](/old)`), reference
 * definitions (`[id]: ../old`) and `href` attributes of components and HTML (`<Card href="/old">`),
 * outside fenced code blocks. Targets are matched the way link-check.ts resolves them: root-relative
 * (`/old`) or relative to the linking file (`../old`, `./old`, `old`), with `.md`/`.mdx`/`.html`
 * and a trailing `/` tolerated, anchors and queries kept. Each rewritten link keeps its form
 * (root-relative stays root-relative, relative stays relative, an extension stays). Node-free.
 */
import { normalizeFilePath, resolveFilePath } from './files';

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
const PAGE_EXT = /\.(?:mdx?|html)$/i;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The page path `bare` (a link target without anchor or query) names from `fromFile`, or undefined. */
function targetPage(fromFile: string, bare: string): string | undefined {
  let decoded = bare;
  try {
    decoded = decodeURI(bare);
  } catch {
    // a malformed escape: match it as written
  }
  const resolved = resolveFilePath(fromFile, decoded);
  return resolved?.replace(PAGE_EXT, '').replace(/\/$/, '');
}

/** `to` (a docs-root path) relative to the folder of `fromFile`. */
function relativeTo(fromFile: string, to: string): string {
  const from = fromFile.split('/').slice(0, -1);
  const target = to.split('/');
  let common = 0;
  while (common < from.length && common < target.length - 1 && from[common] === target[common]) common++;
  return [...from.slice(common).map(() => '..'), ...target.slice(common)].join('/');
}

/**
 * The link target `link`, written in `fromFile`, pointed at `newPage` when it names `oldPage`; else undefined.
 * Page paths have no extension (`guides/setup`); `fromFile` is the linking file relative to the docs root.
 */
export function movedLinkTarget(fromFile: string, link: string, oldPage: string, newPage: string): string | undefined {
  if (EXTERNAL.test(link)) return undefined;
  const bare = link.replace(/[?#].*$/, '');
  if (bare === '') return undefined;
  const page = targetPage(fromFile, bare);
  const old = normalizeFilePath(oldPage);
  if (page === undefined || (page !== old && !(old?.endsWith('/index') && page === old.slice(0, -'/index'.length)))) return undefined;
  const ext = PAGE_EXT.exec(bare)?.[0] ?? '';
  const suffix = link.slice(bare.length);
  if (bare.startsWith('/')) return `/${newPage}${ext}${suffix}`;
  const rel = relativeTo(fromFile, newPage);
  return `${bare.startsWith('./') && !rel.startsWith('../') ? './' : ''}${rel}${ext}${suffix}`;
}

/**
 * `text` (a page file at `fromFile`) with every link to `oldPage` pointed at `newPage`.
 * @returns the new text and how many links changed
 */
export function rewritePageLinks(text: string, fromFile: string, oldPage: string, newPage: string): { text: string; count: number } {
  let count = 0;
  const swap = (link: string) => {
    const moved = movedLinkTarget(fromFile, link, oldPage, newPage);
    if (moved === undefined) return link;
    count++;
    return moved;
  };
  let fence: string | null = null;
  const lines = text.split('\n').map((line) => {
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = null;
      return line;
    }
    if (f) {
      fence = f[1]!;
      return line;
    }
    return line
      .replace(/(\]\(\s*<?)([^)\s>]+)/g, (_m, open: string, link: string) => open + swap(link))
      .replace(/^(\s{0,3}\[[^\]]+\]:\s*<?)(\S+?)(>?(?:\s|$))/, (_m, open: string, link: string, close: string) => open + swap(link) + close)
      .replace(/(\bhref=\{?)(["'])([^"']*)\2/g, (_m, open: string, q: string, link: string) => `${open}${q}${swap(link)}${q}`);
  });
  return { text: lines.join('\n'), count };
}
