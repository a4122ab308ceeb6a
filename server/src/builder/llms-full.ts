/**
 * `llms-full.txt` (decisions.md section 6; Mintlify's practice beside llmstxt.org's `llms.txt`): every
 * readable page's Markdown in one file, in navigation order, so an agent can take the whole site in
 * one request. Each page is a block
 *
 *     # <title>
 *     Source: <absolute page URL>
 *
 *     <the page's `.md` text without its own `# title` line>
 *
 * Hidden pages (frontmatter/nav `hidden`, or outside the navigation) are never written. Gated pages
 * (frontmatter `audience`) are written inside one element marked with the tags that open them
 * (`<quiregated data-audience="partners">…</quiregated>`, shared/src/site/audience.ts `audienceAttrs`):
 * site hosting cuts such marked ranges per visitor exactly as it cuts gated navigation out of HTML
 * files (server/src/sites/audience-variants.ts, deployment-site.ts), so a visitor whose token does
 * not open a page never receives its block, and a visitor whose token does gets it with the marking
 * attributes removed.
 *
 * What keeps the cutting sound on author text: the wrapper's element name is one no page's Markdown
 * contains (`quiregated`, else `quiregated2`, ...), so no text can close it early; and a page whose
 * Markdown holds text the cutter reads as markup of its own (` data-audience`, the theme's
 * `<div class="q-prose">` that ends the searched chrome of HTML files) is left out of the file with
 * an `llms-full-skipped` warning (its `.md` is still served), since such text could end a gated
 * block's cut early.
 *
 * Languages follow llms.txt (llms-languages.ts `languageParts`): `llms-full.txt` holds the default
 * language's pages and those in no language, `<code>/llms-full.txt` each language's. A version
 * deployment writes its own (its `siteUrl` ends with the version's base path).
 */
import { walkPages } from '@quire/shared/docs/nav/index';
import type { BuildWarning, NavNode } from '@quire/shared/docs/types';
import { audienceAttrs } from '@quire/shared/site/audience';
import { AUDIENCE_ATTR } from '@quire/shared/site/audience';
import { ListingWriter, writtenListing } from '../deployments/page-entries';
import { languageParts, type LlmsFile } from './llms-languages';
import type { SitePage } from './site-writer';

/** The file name, at the deployment root and in each language's folder. */
export const LLMS_FULL_FILE = 'llms-full.txt';

/** Text in a page's Markdown that the audience cutter would read as its own markup (see the module comment). */
export const CUTTER_MARKUP = [` ${AUDIENCE_ATTR}`, '<div class="q-prose">'];
/** The wrapper element's name before a suffix makes it unique in the file (letters and digits only: audience-variants.ts reads `[a-z][a-z0-9]*`). */
export const WRAPPER = 'quiregated';

/**
 * The llms-full.txt files of a site (see the module comment).
 * @param pages the site's pages; hidden ones are left out here
 * @param siteUrl absolute base URL of the site (with a version's base path), no trailing slash
 * @param markdownOf the page's `.md` text (a rendered page's `markdown`, or a carried page's file of the previous deployment)
 * @returns the files (`llms-full.txt` first) and an `llms-full-skipped` warning per page left out
 */
export function llmsFullFiles(
  nav: NavNode[],
  pages: readonly SitePage[],
  siteUrl: string,
  markdownOf: (page: SitePage) => string,
): { files: LlmsFile[]; warnings: BuildWarning[] } {
  const warnings: BuildWarning[] = [];
  const texts = new Map<string, string>();
  for (const p of pages) {
    if (p.hidden) continue;
    const md = markdownOf(p);
    if (CUTTER_MARKUP.some((m) => md.includes(m))) {
      warnings.push({
        ...(p.filePath ? { file: p.filePath } : {}),
        kind: 'llms-full-skipped',
        message: `${p.path} is not in llms-full.txt: its Markdown holds "data-audience" or "q-prose" markup that the site's access gate reads as its own (the page's .md is still served)`,
      });
      continue;
    }
    texts.set(p.path, md);
  }
  const readable = pages.filter((p) => texts.has(p.path));
  const wrapper = wrapperName([...texts.values()]);
  // each block is its page's range (deployments/page-entries.ts): site hosting cuts the blocks of pages a reader's access rules refuse
  const write = (part: { nav: NavNode[]; pages: SitePage[] }) => {
    const out = new ListingWriter();
    for (const p of inNavigationOrder(part.nav, part.pages)) out.entry([p.path], () => out.add(pageBlock(p, texts.get(p.path)!, siteUrl, wrapper)));
    return writtenListing(out);
  };
  const parts = languageParts(nav, readable);
  const files: LlmsFile[] = [{ rel: LLMS_FULL_FILE, ...write(parts.root) }];
  for (const lang of parts.languages) files.push({ rel: `${lang.folder}/${LLMS_FULL_FILE}`, ...write(lang) });
  return { files, warnings };
}

/** The pages in the order the navigation lists them, then those it does not list, in their given order. */
export function inNavigationOrder(nav: NavNode[], pages: readonly SitePage[]): SitePage[] {
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const out: SitePage[] = [];
  const placed = new Set<string>();
  for (const { node } of walkPages(nav)) {
    const p = byPath.get(node.path);
    if (!p || placed.has(p.path)) continue;
    placed.add(p.path);
    out.push(p);
  }
  for (const p of pages) if (!placed.has(p.path)) out.push(p);
  return out;
}

/** `quiregated`, or with the first number making it appear in none of `texts`. */
function wrapperName(texts: readonly string[]): string {
  const taken = (name: string) => texts.some((t) => t.includes(name));
  if (!taken(WRAPPER)) return WRAPPER;
  for (let n = 2; ; n++) if (!taken(`${WRAPPER}${n}`)) return `${WRAPPER}${n}`;
}

/** One page's block (see the module comment), wrapped in the marked element when the page is gated; ends with a blank line. */
export function pageBlock(p: SitePage, markdown: string, siteUrl: string, wrapper: string): string {
  const title = oneLine(p.page.title);
  const url = p.path === 'index' ? `${siteUrl}/` : `${siteUrl}/${p.path.split('/').map(encodeURIComponent).join('/')}`;
  const body = withoutTitleLine(markdown, p.page.title).trim();
  const block = `# ${title}\nSource: ${url}\n\n${body ? `${body}\n\n` : ''}`;
  if (!p.audience?.length) return block;
  return `<${wrapper}${audienceAttrs(p.audience)}>\n${block}</${wrapper}>\n`;
}

/** The Markdown without its first line when that line is the page's `# title` (the block's header repeats it). */
function withoutTitleLine(markdown: string, title: string): string {
  const text = markdown.replace(/^\uFEFF?\s*/, '');
  const end = text.indexOf('\n');
  const first = end === -1 ? text : text.slice(0, end);
  return first.trim() === `# ${title.trim()}` ? text.slice(first.length) : text;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
