import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { playgroundDisplay, playgroundOrigins, playgroundServersIn } from '@quire/shared/docs/openapi/playground';
import type { BuildWarning, NavNode, RenderedPage, SiteConfig } from '@quire/shared/docs/types';
import { siteThemeCss, type SiteRenderer } from '@quire/shared/site/index';
import { isStaticFile } from '@quire/shared/site/published-files';
import { createSiteShell, normalBase, pageAudiences, pageDocumentInput } from '@quire/shared/site/site-documents';
import { buildSiteAssets } from '@quire/shared/node/site-assets';
import { llmsFiles } from './llms-languages';
import { llmsFullFiles } from './llms-full';
import { spliceLlmsFull } from './llms-full-splice';
import { MAX_FILE_BYTES, type CheckoutFiles } from './checkout-files';
import { safeJoin, writeOutputs, writeOutputsSync, type FileLinker, type OutputCounts, type OutputFile } from './output-files';
import { siteShellVersion } from './page-cache';
import { encodePagePath } from './listing-text';
import { ListingWriter, PAGE_ENTRIES_FILE, pageEntriesJson, writtenListing, type WrittenListing } from '../deployments/page-entries';
import type { WrittenManifest, WrittenManifestPage } from '../deployments/manifest';

/** One page of the site, rendered. */
export interface SitePage {
  /** page path: `guides/setup`, `index` for the home page */
  path: string;
  /** docs-root file path; absent for generated OpenAPI pages */
  filePath?: string;
  /** the rendered page, or what an incremental build kept of a page it did not render again */
  page: RenderedPage | CarriedPage;
  /** out of the sidebar, search, llms.txt and the sitemap (frontmatter/nav `hidden`, or not in the navigation) */
  hidden: boolean;
  /** frontmatter `audience` tags: the page is gated (decisions.md section 6) */
  audience?: string[];
  /** the code of the navigation language the page is in (`fr`; languageResolver in shared/src/docs/nav/languages.ts) */
  language?: string;
  /** ISO date-time of the last commit changing the page's file (page-dates.ts); frontmatter `lastUpdated` wins */
  lastChanged?: string;
}

/**
 * A page an incremental build did not render again (pipeline.ts): its files are the previous
 * deployment's, reused as they are, which {@link writeSite} can do only when the site shell and the
 * page's inputs are unchanged (`previous` of {@link WriteSiteInput}).
 */
export interface CarriedPage {
  title: string;
  description?: string;
  frontmatter: Record<string, unknown>;
  /** the page's keys in the previous deployment */
  carried: PageOutputKeys;
}

/** A carried page whose files cannot be reused: the caller had to render it (see {@link writeSite}). */
export class CarriedPageError extends Error {}

/** What decides whether a page's files can be reused. */
export interface PageOutputKeys {
  /** sha256 of the page's document inputs besides the shell (`SitePageInput`) */
  inputKey: string;
  /** sha256 hex of the page's `.md` text */
  markdownHash: string;
}

/**
 * The deployment a build replaces, as {@link writeSite} reuses it: a file whose inputs are unchanged
 * is hard-linked from `dir` (copied when it is on another filesystem) instead of written again.
 */
export interface PreviousOutput {
  /** absolute directory of the previous deployment (never modified) */
  dir: string;
  /** its {@link siteShellKey} */
  shellKey: string;
  /** its pages' keys by page path */
  pages: ReadonlyMap<string, PageOutputKeys>;
  /** its hashed theme assets (`_quire/assets/site.<hash>.css`) */
  assets: ReadonlySet<string>;
  /** static files it published that this build did not change (by path) */
  unchangedFiles: ReadonlySet<string>;
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
  /** the deployment this one replaces: unchanged files are shared with it (see {@link PreviousOutput}) */
  previous?: PreviousOutput;
  /**
   * URL prefix the deployment is served under (`/v1`, a documentation version; site-versions.ts):
   * the renderer's base path, the assets' URLs and page bodies' root-relative links carry it.
   * Absent: served at the site root.
   */
  basePath?: string;
  /** API documentation coverage, written into the manifest as it is (load-project.ts `apiCoverage`) */
  apiCoverage?: { operations: number; documented: number };
}

/** What {@link writeSite} did. */
export interface WriteSiteResult {
  manifest: WrittenManifest;
  /** files that were not published (`large-file`) */
  warnings: BuildWarning[];
  /** files in the deployment (manifest included) */
  fileCount: number;
  /** written anew, shared with the previous deployment, copied from the repository */
  counts: OutputCounts;
  /** the site shell's key ({@link siteShellKey}) */
  shellKey: string;
  /** each page's keys, by page path */
  pageKeys: Map<string, PageOutputKeys>;
  /** pages whose document was shared with the previous deployment */
  reusedPages: number;
}

/** Generated files at the deployment root; static files of the same name are not copied over them. */
const RESERVED = new Set(['manifest.json', '404.html', 'llms.txt', 'llms-full.txt', 'sitemap.xml']);

/**
 * A key of everything a page document shares with every other page of the site: the code that
 * renders it ({@link siteShellVersion}), the configuration, the navigation with its titles (sidebar,
 * breadcrumbs, previous/next links) and which of its pages are gated, the theme assets and the edit-link base. A page document of a
 * previous deployment is reused only under the same key: a changed title changes every sidebar.
 */
export function siteShellKey(input: Pick<WriteSiteInput, 'site' | 'nav' | 'editBaseUrl' | 'pages' | 'basePath'>, assets = buildSiteAssets(siteThemeCss(input.site))): string {
  return sha256(
    JSON.stringify([
      siteShellVersion(),
      input.site,
      input.nav,
      assets.all.map((a) => a.file),
      input.editBaseUrl ?? null,
      pageAudiences(input.pages),
      ...(input.basePath ? [input.basePath] : []),
    ]),
  );
}

export { isStaticFile, pageAudiences };

/**
 * Writes a deployment directory (the layout site hosting reads; decisions.md section 6):
 * `<page>.html` and `<page>.md` for every page, `404.html`, `llms.txt` (one per language too, llms-languages.ts) and `sitemap.xml` (visible,
 * ungated pages only), `llms-full.txt` (every visible page's Markdown, gated ones marked for site hosting; llms-full.ts),
 * `_quire/page-entries.json` (where each page sits in those three, for site hosting to cut the pages a reader's access rules
 * refuse; deployments/page-entries.ts), hashed theme assets under `_quire/assets/`, every static file of the docs
 * root at its own path (not pages, not config files, not `snippets/`, not dotfiles, not ignored,
 * at most 20 MB; larger ones get a `large-file` warning), and `manifest.json` last, so a directory
 * without a manifest is an unfinished build.
 *
 * With `previous`, a file whose content is known to be unchanged is shared with the previous
 * deployment instead of written (output-files.ts: hard links, never a change in place): a page's
 * `.html` when the shell key and the page's input key match, its `.md` when the Markdown hash does,
 * `404.html` under the same shell, assets by their hashed name, `llms.txt`, `llms-full.txt` and `sitemap.xml` when
 * their text is equal, static files the caller says are unchanged.
 * @returns the manifest, warnings about files that were not published, and the keys for the next build
 * @throws CarriedPageError when a page of `input.pages` is carried but cannot be reused (the caller must render it)
 */
export function writeSite(input: WriteSiteInput): WriteSiteResult {
  const plan = planSite(input);
  const counts = writeOutputsSync(input.outDir, input.previous?.dir, plan.files);
  return plan.result(counts);
}

/**
 * {@link writeSite}, asynchronously: files shared with the previous deployment are linked by
 * `linker` (a worker thread, render-pool.ts `linkInPool`) or on libuv's threads, and the event loop
 * gets a turn every few written files, so a server building a large site keeps answering.
 */
export async function writeSiteFiles(input: WriteSiteInput, linker?: FileLinker): Promise<WriteSiteResult> {
  const plan = planSite(input);
  const counts = await writeOutputs(input.outDir, input.previous?.dir, plan.files, linker);
  return plan.result(counts);
}

/** The files of a deployment, produced lazily (a page document is rendered only when written), and the result once they are written. */
function planSite(input: WriteSiteInput): { files: Iterable<OutputFile>; result: (counts: OutputCounts) => WriteSiteResult } {
  const warnings: BuildWarning[] = [];
  const assets = buildSiteAssets(siteThemeCss(input.site));
  const shellKey = siteShellKey(input, assets);
  const previous = input.previous;
  const sameShell = previous !== undefined && previous.shellKey === shellKey;
  const base = normalBase(input.basePath);
  let renderer: SiteRenderer | undefined;
  const plan: PagePlan = {
    previous,
    sameShell,
    renderer: () => (renderer ??= createSiteShell({ ...input, assets })),
    pageKeys: new Map(),
    manifestPages: [],
    generated: new Set<string>(RESERVED),
    reusedPages: 0,
    base,
  };
  const { manifestPages, generated } = plan;
  const copied: string[] = [];
  let fileCount = 0;
  let manifest: WrittenManifest | undefined;

  function* files(): Generator<OutputFile> {
    for (const a of assets.all) yield previous?.assets.has(a.file) ? { rel: a.file, reuse: true } : { rel: a.file, content: a.content };
    yield* pageFiles(input.pages, plan);
    yield sameShell ? { rel: '404.html', reuse: true } : { rel: '404.html', content: plan.renderer().notFound() };
    const listed = input.pages.filter((p) => !p.hidden && !p.audience?.length);
    const llms = llmsFiles(input.site, input.nav, listed, input.siteUrl);
    for (const f of llms) generated.add(f.rel);
    for (const f of llms) yield unlessUnchanged(previous, f.rel, f.content);
    // unchanged navigation: the previous files with the changed pages' blocks replaced (llms-full-splice.ts)
    const spliced = sameShell && previous ? spliceLlmsFull(input.pages, input.siteUrl, previous.dir) : undefined;
    const full = spliced ? { files: spliced, warnings: [] } : llmsFullFiles(input.nav, input.pages, input.siteUrl, (p) => pageMarkdown(p, previous));
    warnings.push(...full.warnings);
    for (const f of full.files) generated.add(f.rel);
    for (const f of full.files) yield 'unchanged' in f ? (f.unchanged ? { rel: f.rel, reuse: true } : { rel: f.rel, content: f.content }) : unlessUnchanged(previous, f.rel, f.content);
    const sitemap = sitemapListing(listed, input.siteUrl);
    yield unlessUnchanged(previous, 'sitemap.xml', sitemap.content);
    // where each page sits in those files, for site hosting to cut the pages a reader's access rules refuse
    const listings = new Map<string, WrittenListing>([...llms, ...full.files].map((f) => [f.rel, { content: f.content, ranges: f.ranges ?? [] }]));
    listings.set('sitemap.xml', sitemap);
    generated.add(PAGE_ENTRIES_FILE);
    yield unlessUnchanged(previous, PAGE_ENTRIES_FILE, pageEntriesJson(listings));
    for (const file of input.files.list()) {
      if (!isStaticFile(file) || generated.has(file)) continue;
      if ((input.files.size(file) ?? 0) > MAX_FILE_BYTES) {
        warnings.push({ file, kind: 'large-file', message: `${file} is larger than 20 MB and was not published` });
        continue;
      }
      copied.push(file);
      yield previous?.unchangedFiles.has(file) ? { rel: file, reuse: true } : { rel: file, copyFrom: input.files.absolutePath(file)! };
    }
    fileCount = assets.all.length + 2 * manifestPages.length + 2 + llms.length + full.files.length + 1 + copied.length + 1;
    const connectSrc = connectSrcOf(input);
    manifest = {
      version: 1,
      buildId: input.buildId,
      projectId: input.projectId,
      createdAt: new Date().toISOString(),
      home: input.home,
      pages: manifestPages,
      redirects: input.site.redirects,
      ...(input.site.versioning?.versions.length ? { versions: input.site.versioning.versions.map((v) => ({ ...v })) } : {}),
      notFound: '404.html',
      assets: assets.all.map((a) => a.file),
      ...(connectSrc.length ? { connectSrc } : {}),
      files: copied,
      generated: [...generated].filter((f) => f !== 'manifest.json'),
      ...(input.apiCoverage ? { apiCoverage: input.apiCoverage } : {}),
      ...(Object.keys(input.site.variables).length ? { variables: input.site.variables } : {}),
    };
    yield { rel: 'manifest.json', content: JSON.stringify(manifest), final: true };
  }

  return {
    files: files(),
    result: (counts) => ({ manifest: manifest!, warnings, fileCount, counts, shellKey, pageKeys: plan.pageKeys, reusedPages: plan.reusedPages }),
  };
}

/**
 * A page's `.md` text: the rendered page's, or (a carried page) its file in the previous deployment, which the new one shares.
 * @throws CarriedPageError when a carried page's file cannot be read (the caller renders the page again)
 */
function pageMarkdown(p: SitePage, previous: PreviousOutput | undefined): string {
  if (!('carried' in p.page)) return p.page.markdown;
  if (!previous) throw new CarriedPageError(`${p.path}: a page that was not rendered again needs the previous deployment`);
  try {
    return fs.readFileSync(safeJoin(previous.dir, `${p.path}.md`), 'utf8');
  } catch (err) {
    throw new CarriedPageError(`${p.path}: its Markdown in the previous deployment cannot be read (${(err as Error).message})`);
  }
}

/** A generated file, shared with the previous deployment when that holds the same text. */
function unlessUnchanged(previous: PreviousOutput | undefined, rel: string, content: string): OutputFile {
  if (previous) {
    try {
      if (fs.readFileSync(safeJoin(previous.dir, rel), 'utf8') === content) return { rel, reuse: true };
    } catch {
      /* absent: written anew */
    }
  }
  return { rel, content };
}

/** What {@link pageFiles} shares with the rest of a write. */
interface PagePlan {
  previous: PreviousOutput | undefined;
  sameShell: boolean;
  /** the site renderer, made on first use (a write that reuses every page document never needs it) */
  renderer: () => SiteRenderer;
  pageKeys: Map<string, PageOutputKeys>;
  manifestPages: WrittenManifestPage[];
  generated: Set<string>;
  reusedPages: number;
  /** the deployment's base path (`/v1`) or '': page bodies' root-relative links get it (site-versions.ts `withBasePath`) */
  base: string;
}

/** Each page's `.html` and `.md`, new or reused, filling the manifest's pages and the keys as it goes. */
function* pageFiles(pages: readonly SitePage[], plan: PagePlan): Generator<OutputFile> {
  const { previous, sameShell } = plan;
  for (const p of pages) {
    const { page } = p;
    const before = previous?.pages.get(p.path);
    const html = `${p.path}.html`;
    const md = `${p.path}.md`;
    let keys: PageOutputKeys;
    if ('carried' in page) {
      keys = page.carried;
      if (!sameShell || before?.inputKey !== keys.inputKey || before.markdownHash !== keys.markdownHash) {
        throw new CarriedPageError(`${p.path}: a page that was not rendered again cannot be reused (the site shell or its files changed)`);
      }
      plan.reusedPages++;
      yield { rel: html, reuse: true };
      yield { rel: md, reuse: true };
    } else {
      const doc = pageDocumentInput(p, page, plan.base);
      keys = { inputKey: sha256(JSON.stringify(doc)), markdownHash: sha256(page.markdown) };
      if (sameShell && before?.inputKey === keys.inputKey) {
        plan.reusedPages++;
        yield { rel: html, reuse: true };
      } else yield { rel: html, content: plan.renderer().page(doc) };
      yield before?.markdownHash === keys.markdownHash ? { rel: md, reuse: true } : { rel: md, content: page.markdown };
    }
    plan.pageKeys.set(p.path, keys);
    plan.generated.add(html).add(md);
    const facts = 'carried' in page ? carriedFacts(p, previous) : { ...lastUpdatedOf(p), ...markdownCounts(page.markdown) };
    plan.manifestPages.push({
      path: p.path,
      title: page.title,
      file: html,
      ...(page.description ? { description: page.description } : {}),
      ...(p.hidden ? { hidden: true as const } : {}),
      ...(p.audience?.length ? { audience: p.audience } : {}),
      hash: keys.markdownHash,
      ...facts,
    });
  }
}

/** A page's last update for the manifest: frontmatter `lastUpdated` (a string or a YAML date), else `lastChanged`. */
function lastUpdatedOf(p: SitePage): { lastUpdated?: string } {
  const fm = p.page.frontmatter.lastUpdated;
  const value = typeof fm === 'string' && fm.trim() ? fm.trim() : fm instanceof Date && Number.isFinite(fm.getTime()) ? fm.toISOString() : p.lastChanged;
  return value ? { lastUpdated: value } : {};
}

/** Words and headings (levels 2-6, outside code fences) of a page's Markdown. */
export function markdownCounts(markdown: string): { words: number; headings: number } {
  let words = 0;
  let headings = 0;
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    else if (!fence && /^#{2,6}\s/.test(line)) headings++;
    words += line.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  }
  return { words, headings };
}

/** Manifest pages of previous deployments by directory, read once per write. */
const previousFacts = new WeakMap<PreviousOutput, Map<string, WrittenManifestPage>>();

/**
 * The manifest facts of a page an incremental build carries: its entry in the previous deployment's
 * manifest (the page's files, and so its date, are the previous deployment's); words and headings
 * counted from its shared `.md` when that manifest predates them.
 * @throws CarriedPageError when that `.md` cannot be read (the caller renders the page again)
 */
function carriedFacts(p: SitePage, previous: PreviousOutput | undefined): Pick<WrittenManifestPage, 'lastUpdated' | 'words' | 'headings'> {
  let pages = previous ? previousFacts.get(previous) : undefined;
  if (previous && !pages) {
    pages = new Map();
    try {
      const written = JSON.parse(fs.readFileSync(`${previous.dir}/manifest.json`, 'utf8')) as { pages?: WrittenManifestPage[] };
      for (const e of written.pages ?? []) pages.set(e.path, e);
    } catch {
      /* unreadable: counted below */
    }
    previousFacts.set(previous, pages);
  }
  const before = pages?.get(p.path);
  const dated = lastUpdatedOf(p).lastUpdated ?? before?.lastUpdated;
  let counts: { words: number; headings: number };
  if (before?.words !== undefined) counts = { words: before.words, headings: before.headings ?? 0 };
  else counts = markdownCounts(pageMarkdown(p, previous));
  return { ...(dated ? { lastUpdated: dated } : {}), ...counts };
}

/**
 * The origins the site's API playground sends to (docs.json `api.playground.display: interactive`,
 * shared/src/docs/openapi/playground.ts): the servers recorded by the generated OpenAPI pages, sorted.
 * Empty when the playground is off.
 */
export function connectSrcOf(input: Pick<WriteSiteInput, 'site' | 'pages' | 'previous'>): string[] {
  if (playgroundDisplay(input.site.raw) !== 'interactive') return [];
  const origins = new Set<string>();
  let carriedApi = false;
  for (const p of input.pages) {
    const fm = p.page.frontmatter;
    for (const o of playgroundOrigins(fm.servers)) origins.add(o);
    if ('html' in p.page) for (const o of playgroundOrigins(playgroundServersIn(p.page.html))) origins.add(o);
    else if (typeof fm.openapi === 'string' || typeof fm.api === 'string') carriedApi = true;
  }
  // an MDX page embedding an operation that this build kept as it was: the previous deployment's list holds its server
  if (carriedApi && input.previous) for (const o of previousConnectSrc(input.previous.dir)) origins.add(o);
  return [...origins].sort();
}

/** The `connectSrc` of a deployment directory's manifest ([] when unreadable). */
function previousConnectSrc(dir: string): string[] {
  try {
    const list = (JSON.parse(fs.readFileSync(`${dir}/manifest.json`, 'utf8')) as { connectSrc?: unknown }).connectSrc;
    return Array.isArray(list) ? list.filter((o): o is string => typeof o === 'string') : [];
  } catch {
    return [];
  }
}

/** sitemap.xml listing the pages' URLs (`index` as the site root), with `lastmod` from frontmatter `lastUpdated`. */
export function sitemapXml(pages: SitePage[], siteUrl: string): string {
  return sitemapListing(pages, siteUrl).content;
}

/** {@link sitemapXml} with its page ranges (deployments/page-entries.ts): each `<url>` line belongs to its page. */
export function sitemapListing(pages: SitePage[], siteUrl: string): WrittenListing {
  const out = new ListingWriter().add('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n');
  for (const p of pages) {
    const loc = p.path === 'index' ? `${siteUrl}/` : `${siteUrl}/${encodePagePath(p.path)}`;
    const lm = p.page.frontmatter.lastUpdated;
    const lastmod = typeof lm === 'string' && !Number.isNaN(Date.parse(lm)) ? `<lastmod>${xml(lm)}</lastmod>` : '';
    out.entry([p.path], () => out.add(`  <url><loc>${xml(loc)}</loc>${lastmod}</url>\n`));
  }
  return writtenListing(out.add('</urlset>\n'));
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
