/** One llms.txt listing of a site's pages (llmstxt.org); llms-languages.ts decides which files there are. */
import { walkPages } from '@quire/shared/docs/nav/index';
import type { NavNode, SiteConfig } from '@quire/shared/docs/types';
import { ListingWriter, writtenListing, type WrittenListing } from '../deployments/page-entries';
import { encodePagePath, oneLine } from './listing-text';
import type { SitePage } from './site-writer';

/**
 * One llms.txt (llmstxt.org): `# name`, the description as a quote, then one `## section` per navigation
 * group (in navigation order) listing `- [title](<site>/<path>.md): description`; pages outside the
 * navigation but visible come last under "Other pages". With its page ranges (deployments/page-entries.ts):
 * each entry line belongs to its page, each section (heading and entries) to all of its pages.
 * @param siteUrl absolute base URL of the site, no trailing slash
 */
export function llmsTxtListing(site: SiteConfig, nav: NavNode[], pages: SitePage[], siteUrl: string): WrittenListing {
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const sections = new Map<string, SitePage[]>();
  const placed = new Set<string>();
  for (const { node, ancestors } of walkPages(nav)) {
    const p = byPath.get(node.path);
    if (!p || placed.has(p.path)) continue;
    placed.add(p.path);
    let title = 'Docs';
    for (const a of [...ancestors].reverse()) {
      if ((a.type === 'group' || a.type === 'division') && a.title) {
        title = a.title;
        break;
      }
    }
    if (!sections.has(title)) sections.set(title, []);
    sections.get(title)!.push(p);
  }
  const rest = pages.filter((p) => !placed.has(p.path));
  if (rest.length > 0) sections.set('Other pages', rest);
  const line = (p: SitePage) =>
    `- [${p.page.title.replace(/[[\]]/g, '')}](${siteUrl}/${encodePagePath(p.path)}.md)${p.page.description ? `: ${oneLine(p.page.description)}` : ''}`;
  const out = new ListingWriter().add(`# ${site.name}\n`);
  if (site.description) out.add(`\n> ${oneLine(site.description)}\n`);
  for (const [title, list] of sections) {
    out.entry(list.map((p) => p.path), () => {
      out.add(`\n## ${title}\n\n`);
      for (const p of list) out.entry([p.path], () => out.add(`${line(p)}\n`));
    });
  }
  return writtenListing(out);
}
