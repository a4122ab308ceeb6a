import { languageDivisions, languageFolder, languageName, languageResolver } from '@quire/shared/docs/nav/index';
import type { NavDivision, NavNode, SiteConfig } from '@quire/shared/docs/types';
import { llmsTxt, type SitePage } from './site-writer';

/** One generated llms.txt file: its deployment-relative path and text. */
export interface LlmsFile {
  /** `llms.txt`, or `<language>/llms.txt` */
  rel: string;
  content: string;
}

/** The navigation without the language divisions in `drop` (at any depth). */
function withoutLanguages(nav: NavNode[], drop: ReadonlySet<NavDivision>): NavNode[] {
  return nav
    .filter((n) => !(n.type === 'division' && drop.has(n)))
    .map((n) => (n.type === 'division' || n.type === 'group' ? { ...n, children: withoutLanguages(n.children, drop) } : n));
}

/**
 * The llms.txt files of a site (llmstxt.org; {@link llmsTxt} writes each): one `llms.txt` without
 * languages. With `languages` in the navigation (Mintlify's organize/navigation "Languages"), each
 * language's pages are listed apart, in `<code>/llms.txt` (`fr/llms.txt`, in that language's
 * navigation order, its pages outside the navigation under "Other pages"), and the root `llms.txt`
 * lists the default language's pages and those in no language, then a "Languages" section linking
 * every language's file. A language whose code is not a plain path segment gets no file of its own.
 * @param pages the visible, ungated pages (the ones llms.txt may list)
 * @param siteUrl absolute base URL of the site, no trailing slash
 */
export function llmsFiles(site: SiteConfig, nav: NavNode[], pages: SitePage[], siteUrl: string): LlmsFile[] {
  const languages = languageDivisions(nav).filter((d) => languageFolder(d.title) !== undefined);
  if (languages.length === 0) return [{ rel: 'llms.txt', content: llmsTxt(site, nav, pages, siteUrl) }];
  const languageOf = languageResolver(nav);
  const def = languages.find((d) => d.default) ?? languages[0]!;
  const files: LlmsFile[] = [];
  const links: string[] = [];
  for (const lang of languages) {
    const own = pages.filter((p) => languageOf(p.path) === lang.title);
    const rel = `${languageFolder(lang.title)!}/llms.txt`;
    files.push({ rel, content: llmsTxt(site, lang.children, own, siteUrl) });
    links.push(`- [${languageName(lang.title).replace(/[[\]]/g, '')}](${siteUrl}/${rel}): ${own.length} pages`);
  }
  const rootPages = pages.filter((p) => {
    const code = languageOf(p.path);
    return code === undefined || code === def.title;
  });
  const rootNav = withoutLanguages(nav, new Set(languages.filter((d) => d !== def)));
  const root = `${llmsTxt(site, rootNav, rootPages, siteUrl)}\n## Languages\n\n${links.join('\n')}\n`;
  return [{ rel: 'llms.txt', content: root }, ...files];
}
