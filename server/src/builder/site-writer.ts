import fs from 'node:fs';
import path from 'node:path';
import { walkPages } from '@quire/shared/docs/nav/index';
import type { BuildWarning, NavNode, Redirect, RenderedPage, SiteConfig } from '@quire/shared/docs/types';
import { createSiteRenderer } from '@quire/shared/site/index';
import { siteThemeCss } from '@quire/shared/site/index';
import { ASSET_DIR, buildSiteAssets } from './assets';
import { MAX_FILE_BYTES, type CheckoutFiles } from './checkout-files';

/** One page of the site, rendered. */
export interface SitePage {
  /** page path: `guides/setup`, `index` for the home page */
  path: string;
  /** docs-root file path; absent for generated OpenAPI pages */
  filePath?: string;
  page: RenderedPage;
  /** out of the sidebar, search, llms.txt and the sitemap (frontmatter/nav `hidden`, or not in the navigation) */
  hidden: boolean;
  /** frontmatter `audience` tags: the page is gated (decisions.md section 6) */
  audience?: string[];
}

/** One entry of manifest.json's `pages`. */
export interface ManifestPage {
  path: string;
  title: string;
  /** the HTML file inside the deployment (`guides/setup.html`) */
  file: string;
  description?: string;
  hidden?: true;
  /** gated page: readable only with a token whose profile has one of these tags */
  audience?: string[];
}

/** manifest.json of a deployment: what site hosting (H7b) reads to serve it. */
export interface DeploymentManifest {
  version: 1;
  buildId: string;
  projectId: string;
  createdAt: string;
  /** page path served at `/` */
  home: string;
  pages: ManifestPage[];
  redirects: Redirect[];
  notFound: '404.html';
  /** hashed theme assets (`_quire/assets/site.<hash>.css`, ...) */
  assets: string[];
  /** static files copied from the docs root, by path */
  files: string[];
  /**
   * every other file generated here (pages' `.html` and `.md`, `404.html`, `llms.txt`,
   * `sitemap.xml`): site hosting serves only these and `assets` as the site's own files, and
   * everything else by its repository-file rules (no script, no HTML documents)
   */
  generated: string[];
}

/** What {@link writeSite} needs. */
export interface WriteSiteInput {
  outDir: string;
  buildId: string;
  projectId: string;
  site: SiteConfig;
  /** navigation with titles filled and OpenAPI pages expanded */
  nav: NavNode[];
  pages: SitePage[];
  home: string;
  files: CheckoutFiles;
  /** absolute base URL of the site, no trailing slash: `http://acme-docs.localhost:4000` */
  siteUrl: string;
  editBaseUrl?: string;
}

/** Generated files at the deployment root; static files of the same name are not copied over them. */
const RESERVED = new Set(['manifest.json', '404.html', 'llms.txt', 'sitemap.xml']);
const CONFIG_FILES = new Set(['docs.json', 'mint.json']);

/**
 * Writes a deployment directory (the layout site hosting reads; brief H7a):
 * `<page>.html` and `<page>.md` for every page, `404.html`, `llms.txt` and `sitemap.xml` (visible,
 * ungated pages only), hashed theme assets under `_quire/assets/`, every static file of the docs
 * root at its own path (not pages, not config files, not `snippets/`, not dotfiles, not ignored,
 * at most 20 MB; larger ones get a `large-file` warning), and `manifest.json` last, so a directory
 * without a manifest is an unfinished build.
 * @returns the manifest and warnings about files that were not copied
 */
export function writeSite(input: WriteSiteInput): { manifest: DeploymentManifest; warnings: BuildWarning[]; fileCount: number } {
  const { outDir, site, files } = input;
  const warnings: BuildWarning[] = [];
  const dirs = new Set<string>();
  let fileCount = 0;
  const write = (rel: string, content: string) => {
    const abs = safeJoin(outDir, rel);
    const dir = path.dirname(abs);
    if (!dirs.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      dirs.add(dir);
    }
    fs.writeFileSync(abs, content);
    fileCount++;
  };

  const assets = buildSiteAssets(siteThemeCss(site));
  for (const a of assets.all) write(a.file, a.content);
  const renderer = createSiteRenderer({
    site,
    nav: input.nav,
    assets: { css: assets.css.url, js: assets.js.url, themeJs: assets.themeJs.url },
    siteCss: assets.siteCss.url,
    ...(input.editBaseUrl ? { editBaseUrl: input.editBaseUrl } : {}),
  });

  const generated = new Set<string>(RESERVED);
  const manifestPages: ManifestPage[] = [];
  for (const p of input.pages) {
    const { page } = p;
    const lastUpdated = typeof page.frontmatter.lastUpdated === 'string' ? page.frontmatter.lastUpdated : undefined;
    const html = renderer.page({
      path: p.path,
      title: page.title,
      ...(page.description ? { description: page.description } : {}),
      // a description the author did not write in frontmatter was derived from the body (generated
      // OpenAPI pages): meta tags only, the body already shows it
      ...(typeof page.frontmatter.description === 'string' ? {} : { lead: false }),
      html: page.html,
      toc: page.toc,
      ...(lastUpdated ? { lastUpdated } : {}),
      ...(p.hidden ? { hidden: true } : {}),
      ...(p.filePath ? { filePath: p.filePath } : {}),
    });
    write(`${p.path}.html`, html);
    write(`${p.path}.md`, page.markdown);
    generated.add(`${p.path}.html`).add(`${p.path}.md`);
    manifestPages.push({
      path: p.path,
      title: page.title,
      file: `${p.path}.html`,
      ...(page.description ? { description: page.description } : {}),
      ...(p.hidden ? { hidden: true as const } : {}),
      ...(p.audience?.length ? { audience: p.audience } : {}),
    });
  }
  write('404.html', renderer.notFound());

  const listed = input.pages.filter((p) => !p.hidden && !p.audience?.length);
  write('llms.txt', llmsTxt(site, input.nav, listed, input.siteUrl));
  write('sitemap.xml', sitemapXml(listed, input.siteUrl));

  const copied: string[] = [];
  for (const file of files.list()) {
    if (!isStaticFile(file) || generated.has(file)) continue;
    const size = files.size(file) ?? 0;
    if (size > MAX_FILE_BYTES) {
      warnings.push({ file, kind: 'large-file', message: `${file} is larger than 20 MB and was not published` });
      continue;
    }
    const abs = safeJoin(outDir, file);
    const dir = path.dirname(abs);
    if (!dirs.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      dirs.add(dir);
    }
    fs.copyFileSync(files.absolutePath(file)!, abs);
    copied.push(file);
    fileCount++;
  }

  const manifest: DeploymentManifest = {
    version: 1,
    buildId: input.buildId,
    projectId: input.projectId,
    createdAt: new Date().toISOString(),
    home: input.home,
    pages: manifestPages,
    redirects: site.redirects,
    notFound: '404.html',
    assets: assets.all.map((a) => a.file),
    files: copied,
    generated: [...generated].filter((f) => f !== 'manifest.json'),
  };
  write('manifest.json', JSON.stringify(manifest, null, 2));
  return { manifest, warnings, fileCount };
}

/** True for docs-root files published as they are (images, favicon, specs, downloads). */
export function isStaticFile(file: string): boolean {
  return (
    !/\.mdx?$/i.test(file) &&
    !CONFIG_FILES.has(file) &&
    !file.startsWith('snippets/') &&
    !file.startsWith('_snippets/') &&
    !file.startsWith(`${ASSET_DIR.split('/')[0]}/`) &&
    !file.split('/').some((seg) => seg.startsWith('.'))
  );
}

/**
 * llms.txt (llmstxt.org): `# name`, the description as a quote, then one `## section` per navigation
 * group (in navigation order) listing `- [title](<site>/<path>.md): description`; pages outside the
 * navigation but visible come last under "Other pages".
 */
export function llmsTxt(site: SiteConfig, nav: NavNode[], pages: SitePage[], siteUrl: string): string {
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
    `- [${p.page.title.replace(/[[\]]/g, '')}](${siteUrl}/${encodePath(p.path)}.md)${p.page.description ? `: ${oneLine(p.page.description)}` : ''}`;
  let out = `# ${site.name}\n`;
  if (site.description) out += `\n> ${oneLine(site.description)}\n`;
  for (const [title, list] of sections) out += `\n## ${title}\n\n${list.map(line).join('\n')}\n`;
  return out;
}

/** sitemap.xml listing the pages' URLs (`index` as the site root), with `lastmod` from frontmatter `lastUpdated`. */
export function sitemapXml(pages: SitePage[], siteUrl: string): string {
  const urls = pages.map((p) => {
    const loc = p.path === 'index' ? `${siteUrl}/` : `${siteUrl}/${encodePath(p.path)}`;
    const lm = p.page.frontmatter.lastUpdated;
    const lastmod = typeof lm === 'string' && !Number.isNaN(Date.parse(lm)) ? `<lastmod>${xml(lm)}</lastmod>` : '';
    return `  <url><loc>${xml(loc)}</loc>${lastmod}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

function safeJoin(root: string, rel: string): string {
  const abs = path.resolve(root, rel);
  if (!abs.startsWith(path.resolve(root) + path.sep)) throw new Error(`refusing to write outside the deployment: ${rel}`);
  return abs;
}

const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
