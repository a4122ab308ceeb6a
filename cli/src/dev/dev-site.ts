/**
 * The site `quire-docs dev` serves, held in memory and made by the code a build makes a deployment
 * with: pages rendered as the build's render workers render them (render-entry.ts), laid out by
 * `layoutSite`, wrapped in their documents by `createSiteShell` and `pageDocumentInput`
 * (shared/src/site/site-layout.ts, site-documents.ts), with the hashed theme assets of
 * shared/src/node/site-assets.ts. A page's document is made when it is asked for.
 *
 * {@link DevSite.update} takes the files that changed and renders again only the pages they affect
 * (a page's file, or a snippet it imports); a change to the configuration, an OpenAPI file, the lint
 * rules, or a file added or removed loads the whole project again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_FILES } from '@quire/shared/docs/config/page-files';
import { titleFromPath } from '@quire/shared/docs/config/index';
import { createCodeHighlighter, type CodeHighlighter } from '@quire/shared/docs/markdown/index';
import { loadOpenApiRegistry, type OpenApiRegistry } from '@quire/shared/docs/openapi/index';
import { sitePages, type SitePageEntry } from '@quire/shared/docs/site-page';
import type { BuildWarning, DocsFiles, RenderedPage } from '@quire/shared/docs/types';
import type { LoadedProject } from '@quire/shared/docs/config/index';
import { buildSiteAssets, type HashedAsset, type SiteAssets } from '@quire/shared/node/site-assets';
import { userFieldsOf } from '@quire/shared/site/personalisation';
import { siteThemeCss, type SiteRenderer } from '@quire/shared/site/index';
import { layoutSite, type SiteLayout } from '@quire/shared/site/site-layout';
import { createSiteShell } from '@quire/shared/site/site-documents';
import { loadDiskProject } from '../disk-project';
import { LINT_CONFIG_FILE, readLintConfig } from '../lint-config';
import { renderEntry, type RenderContext } from '../render-entry';

/** One page of the site: rendered, or why it cannot be (`file:line: reason`). */
export interface DevPage {
  entry: SitePageEntry;
  page?: RenderedPage;
  error?: string;
}

/** What an update did: loaded everything again, rendered some pages again, or only files changed (images). */
export type DevUpdate = { kind: 'full' } | { kind: 'pages'; pages: string[] } | { kind: 'files' };

/** Files whose change means loading the project again. */
const PROJECT_FILES = new Set<string>([...CONFIG_FILES, LINT_CONFIG_FILE, '.mintignore']);

/** A loaded site (see the module comment). */
export class DevSite {
  /** the pages by page path, sorted */
  readonly pages = new Map<string, DevPage>();
  layout!: SiteLayout;
  shell!: SiteRenderer;
  /** the theme assets by URL path (`/_quire/assets/site.1a2b3c4d5e.css`) */
  readonly assetsByUrl: Map<string, HashedAsset>;

  private constructor(
    /** the folder given to `dev` (absolute) */
    readonly dir: string,
    readonly project: LoadedProject,
    readonly files: DocsFiles,
    /** absolute docs root */
    readonly docsRoot: string,
    private readonly ctx: RenderContext,
    private readonly assets: SiteAssets,
  ) {
    this.assetsByUrl = new Map(assets.all.map((a) => [a.url, a]));
  }

  /**
   * Loads the project in `dir` and renders every page (a page that cannot be rendered keeps its error).
   * @throws UsageError when the folder or its configuration cannot be used (reported relative to `cwd`)
   */
  static async load(dir: string, cwd: string, highlighter?: CodeHighlighter): Promise<DevSite> {
    const { project, files, docsRoot } = loadDiskProject(dir, cwd);
    const lint = readLintConfig([docsRoot, dir]);
    let registry: OpenApiRegistry | undefined;
    const ctx: RenderContext = {
      files,
      highlighter: highlighter ?? (await createCodeHighlighter()),
      variables: project.config.variables,
      userFields: userFieldsOf(project.config.raw),
      glossary: (lint.glossary ?? []).filter((g) => g.definition.trim()),
      registry: () => (registry ??= loadOpenApiRegistry(files, project.config.openapi).registry),
    };
    const site = new DevSite(path.resolve(dir), project, files, docsRoot, ctx, buildSiteAssets(siteThemeCss(project.config)));
    for (const entry of sitePages(project.pageFiles, project.operations)) site.pages.set(entry.path, { entry });
    await site.render([...site.pages.keys()]);
    site.relayout();
    return site;
  }

  /** The highlighter, for the next load (its grammars are loaded once per process). */
  get highlighter(): CodeHighlighter {
    return this.ctx.highlighter;
  }

  /** Each page's problems: render warnings (broken links are `check`'s job) and render errors. */
  problems(paths: Iterable<string> = this.pages.keys()): { path: string; error?: string; warnings: BuildWarning[] }[] {
    return [...paths].map((p) => {
      const dev = this.pages.get(p);
      return { path: p, ...(dev?.error ? { error: dev.error } : {}), warnings: dev?.page?.warnings ?? [] };
    });
  }

  /**
   * Brings the site up to date with changed files (paths relative to {@link dir}, POSIX).
   * @returns what was done; `full` means the caller must load a new site ({@link DevSite.load})
   */
  async update(changed: readonly string[]): Promise<DevUpdate> {
    const rootRel = path.relative(this.dir, this.docsRoot).split(path.sep).join('/');
    const inRoot: string[] = [];
    for (const f of changed) {
      if (PROJECT_FILES.has(path.posix.basename(f)) && !f.includes('/node_modules/')) return { kind: 'full' };
      if (rootRel && f !== rootRel && !f.startsWith(`${rootRel}/`)) continue;
      inRoot.push(rootRel ? f.slice(rootRel.length + 1) : f);
    }
    const listed = new Set(this.files.list());
    const specs = new Set(this.project.config.openapi.map((s) => s.replace(/^\/+/, '')));
    for (const f of this.project.operations) specs.add(f.specFile.replace(/^\/+/, ''));
    for (const f of inRoot) {
      if (specs.has(f)) return { kind: 'full' };
      if (listed.has(f) !== isFile(path.join(this.docsRoot, f))) return { kind: 'full' }; // added or removed
    }
    const touched = new Set(inRoot);
    const affected = [...this.pages.values()].filter(
      (p) => (p.entry.filePath && touched.has(p.entry.filePath)) || p.page?.dependencies.some((d) => touched.has(d.replace(/^\/+/, ''))),
    );
    if (affected.some((p) => p.entry.operation)) return { kind: 'full' };
    if (affected.length === 0) return { kind: 'files' };
    const paths = affected.map((p) => p.entry.path);
    await this.render(paths);
    this.relayout();
    return { kind: 'pages', pages: paths };
  }

  /** Renders pages again, keeping each one's page or error. */
  private async render(paths: readonly string[]): Promise<void> {
    for (const p of paths) {
      const dev = this.pages.get(p)!;
      try {
        const page = await renderEntry(dev.entry, this.ctx);
        if (page) this.pages.set(p, { entry: dev.entry, page });
        else this.pages.set(p, { entry: dev.entry, error: `${dev.entry.operation!.specFile}: OpenAPI operation "${dev.entry.operation!.ref}" was not found` });
      } catch (err) {
        const e = err as { message?: string; file?: string; line?: number };
        const file = e.file ?? dev.entry.filePath ?? p;
        const message = (e.message ?? String(err)).replace(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?::\\d+)*:\\s*`), '');
        this.pages.set(p, { entry: dev.entry, error: `${file}${e.line ? `:${e.line}` : ''}: ${message}` });
      }
    }
  }

  /** Lays the site out again (titles and hidden flags may have changed) and makes its renderer. */
  private relayout(): void {
    const entries = [...this.pages.values()].map(({ entry, page }) => ({
      ...entry,
      title: page?.title ?? titleFromPath(entry.path),
      frontmatter: page?.frontmatter ?? {},
    }));
    this.layout = layoutSite(this.project.nav, entries);
    this.shell = createSiteShell({ site: this.project.config, nav: this.layout.nav, pages: this.layout.pages, assets: this.assets });
  }
}

function isFile(abs: string): boolean {
  try {
    return fs.statSync(abs).isFile();
  } catch {
    return false;
  }
}
