import { languageDivisions, languageFolder, languageName, languageResolver } from '@quire/shared/docs/nav/index';
import type { NavDivision, NavNode, SiteConfig } from '@quire/shared/docs/types';
import type { WrittenListing } from '../deployments/page-entries';
import { llmsTxtListing } from './llms-txt';
import type { SitePage } from './site-writer';

/** One generated llms.txt file: its deployment-relative path and text. */
export interface LlmsFile {
  /** `llms.txt`, or `<language>/llms.txt` */
  rel: string;
  content: string;
  /** where each page sits in `content` (deployments/page-entries.ts), for site hosting to cut pages a reader is refused */
  ranges?: WrittenListing['ranges'];
}

/** The navigation without the language divisions in `drop` (at any depth). */
function withoutLanguages(nav: NavNode[], drop: ReadonlySet<NavDivision>): NavNode[] {
  return nav
    .filter((n) => !(n.type === 'division' && drop.has(n)))
    .map((n) => (n.type === 'division' || n.type === 'group' ? { ...n, children: withoutLanguages(n.children, drop) } : n));
}

/**
 * The llms.txt files of a site (llmstxt.org; {@link llmsTxtListing} writes each): one `llms.txt` without
 * languages. With `languages` in the navigation (Mintlify's organize/navigation "Languages"), each
 * language's pages are listed apart, in `<code>/llms.txt` (`fr/llms.txt`, in that language's
 * navigation order, its pages outside the navigation under "Other pages"), and the root `llms.txt`
 * lists the default language's pages and those in no language, then a "Languages" section linking
 * every language's file. A language whose code is not a plain path segment gets no file of its own.
 * @param pages the visible, ungated pages (the ones llms.txt may list)
 * @param siteUrl absolute base URL of the site, no trailing slash
 */
export function llmsFiles(site: SiteConfig, nav: NavNode[], pages: SitePage[], siteUrl: string): LlmsFile[] {
  const parts = languageParts(nav, pages);
  if (parts.languages.length === 0) return [{ rel: 'llms.txt', ...llmsTxtListing(site, nav, pages, siteUrl) }];
  const files: LlmsFile[] = [];
  const links: string[] = [];
  for (const lang of parts.languages) {
    const rel = `${lang.folder}/llms.txt`;
    files.push({ rel, ...llmsTxtListing(site, lang.nav, lang.pages, siteUrl) });
    // No page count: access rules decide per reader which pages a file shows, and a count written
    // at build time would tell every reader how many there are.
    links.push(`- [${languageName(lang.code).replace(/[[\]]/g, '')}](${siteUrl}/${rel})`);
  }
  // the root file's own listing comes first, so its ranges stay where they are
  const root = llmsTxtListing(site, parts.root.nav, parts.root.pages, siteUrl);
  return [{ rel: 'llms.txt', content: `${root.content}\n## Languages\n\n${links.join('\n')}\n`, ranges: root.ranges }, ...files];
}

/** One language's share of a site for its own llms files (see {@link languageParts}). */
export interface LanguagePart {
  /** the language code (`fr`) */
  code: string;
  /** the folder its files go in (`fr`: `fr/llms.txt`) */
  folder: string;
  /** that language's navigation */
  nav: NavNode[];
  /** its pages among those given */
  pages: SitePage[];
}

/**
 * How the llms files split a site by language (Mintlify's navigation "Languages"): every language
 * whose code is a plain path segment gets its own part; the root file covers the default
 * language's pages and those in no language, with the navigation without the other languages.
 * Without such languages, `languages` is empty and `root` is the whole site.
 */
export function languageParts(nav: NavNode[], pages: SitePage[]): { root: { nav: NavNode[]; pages: SitePage[] }; languages: LanguagePart[] } {
  const languages = languageDivisions(nav).filter((d) => languageFolder(d.title) !== undefined);
  if (languages.length === 0) return { root: { nav, pages }, languages: [] };
  const languageOf = languageResolver(nav);
  const def = languages.find((d) => d.default) ?? languages[0]!;
  const parts = languages.map((lang) => ({
    code: lang.title,
    folder: languageFolder(lang.title)!,
    nav: lang.children,
    pages: pages.filter((p) => languageOf(p.path) === lang.title),
  }));
  const rootPages = pages.filter((p) => {
    const code = languageOf(p.path);
    return code === undefined || code === def.title;
  });
  return { root: { nav: withoutLanguages(nav, new Set(languages.filter((d) => d !== def))), pages: rootPages }, languages: parts };
}
