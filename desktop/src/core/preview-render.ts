import fs from 'node:fs';
import { createRequire } from 'node:module';
import { createCodeHighlighter, renderPage, type GlossaryEntry } from '@quire/shared/docs/markdown/index';
import { normalizeFilePath } from '@quire/shared/docs/files';
import type { DocsFiles } from '@quire/shared/docs/types';
import { pagePathOf } from '@quire/shared/docs/nav/index';
import { createSiteRenderer, siteThemeCss, SITE_CSS_FILES } from '@quire/shared/site/index';
import { withBasePath } from '@quire/shared/site/site-versions';
import { userFieldsOf } from '@quire/shared/site/personalisation';
import { buildProjectModel, type ProjectModel } from './project-model';
import { renderSections, type SectionCache } from './preview-sections';
import { PREVIEW_FRAME_JS, PREVIEW_KATEX_CSS, PREVIEW_MERMAID_JS, PREVIEW_SITE_JS } from './preview-urls';

/**
 * The preview renderer: one page of a workspace, rendered by the shared docs engine and wrapped
 * in the site theme's document exactly as a published build does (server/src/builder/render-worker.ts
 * and site-writer.ts), with the theme's CSS inlined. The site's scripts (diagrams, views, code block
 * toggles, page actions), mermaid and KaTeX's stylesheet are loaded from the core, and the page's
 * root-relative URLs (images, logo, favicon, downloads) point at the project's files there
 * (preview-urls.ts), as the site serves them beside its pages; the preview frames run these scripts
 * in an opaque origin (sandboxed without `allow-same-origin`), so nothing in them reaches the app.
 */

/** What a preview answers: the HTML document, or why the page cannot be rendered (with a line when known). */
export type PreviewResult = { ok: true; html: string; title: string } | { ok: false; message: string; line?: number };

let highlighter: ReturnType<typeof createCodeHighlighter> | undefined;
let themeCss: string | undefined;

function readThemeCss(): string {
  const require = createRequire(import.meta.url);
  return (themeCss ??= SITE_CSS_FILES.map((f) => fs.readFileSync(require.resolve(`@quire/shared/assets/${f}`), 'utf8')).join('\n'));
}

/** A project's files as last loaded, with its model (rebuilt when the files change). */
export interface PreviewProject {
  files: Record<string, string>;
  model?: ProjectModel;
  modelError?: string;
  /** rendered sections of long pages (preview-sections.ts), valid while these files are */
  sections?: SectionCache;
}

/** Loads the model of a project for previews; a config that does not load is kept as an error. */
export function loadPreviewProject(files: Record<string, string>): PreviewProject {
  try {
    return { files, model: buildProjectModel(files) };
  } catch (err) {
    return { files, modelError: (err as Error).message };
  }
}

const STYLE_LINK = /<link rel="stylesheet" href="quire-preview:([a-z]+)"[^>]*>/g;
const SCRIPT_TAG = /<script([^>]*) src="quire-preview:([a-z]+)"[^>]*><\/script>/g;

/**
 * Renders `text` as the page at repository path `path` of `project`.
 * @param options.theme 'light' | 'dark': the preview follows the app's theme
 * @param options.basePath where the project's published files are served to the preview (preview-urls.ts `previewBasePath`); '' or absent: the root
 * Never throws for page problems: a page that does not parse answers `{ ok: false, message, line? }`.
 */
export async function renderPreview(
  project: PreviewProject,
  path: string,
  text: string,
  options: { theme?: 'light' | 'dark'; glossary?: GlossaryEntry[]; basePath?: string } = {},
): Promise<PreviewResult> {
  const model = project.model;
  if (!model) return { ok: false, message: `The configuration cannot be loaded: ${project.modelError ?? 'unknown error'}` };
  const prefix = model.docsRoot ? `${model.docsRoot}/` : '';
  if (!path.startsWith(prefix)) return { ok: false, message: `${path} is outside the docs folder ${model.docsRoot}/` };
  const filePath = path.slice(prefix.length);
  highlighter ??= createCodeHighlighter();
  const hl = await highlighter;
  try {
    const base = model.files;
    const files: DocsFiles = {
      read: (p) => (normalizeFilePath(p) === filePath ? text : base.read(p)),
      exists: (p) => normalizeFilePath(p) === filePath || base.exists(p),
      list: () => base.list(),
    };
    const variables = model.config.variables ?? {};
    const glossary = options.glossary ?? [];
    const userFields = userFieldsOf(model.config.raw);
    // a long page is rendered by sections, only the edited one again; else whole
    const page =
      (await renderSections({ filePath, source: text, files, highlighter: hl, variables, userFields, glossary, cache: (project.sections ??= new Map()) })) ??
      // top-level blocks carry data-line so the preview can follow the editor's scroll (preview only)
      (await renderPage({ filePath, source: text, files, highlighter: hl, variables, userFields, glossary, sourceLines: true }));
    const urlBase = (options.basePath ?? '').replace(/\/+$/, '');
    const renderer = createSiteRenderer({
      site: model.config,
      nav: model.nav,
      assets: { css: 'quire-preview:css', js: 'quire-preview:js', themeJs: 'quire-preview:theme', katexCss: 'quire-preview:katex', mermaidJs: 'quire-preview:mermaid' },
      siteCss: 'quire-preview:site',
      ...(urlBase ? { basePath: urlBase } : {}),
    });
    const pagePath = pagePathOf(filePath) ?? filePath;
    const doc = renderer.page({
      path: pagePath,
      title: page.title,
      ...(page.description ? { description: page.description } : {}),
      html: withBasePath(page.html, urlBase),
      toc: page.toc,
      filePath,
    });
    const css = readThemeCss();
    const siteCss = siteThemeCss(model.config);
    const html = doc
      .replace(STYLE_LINK, (_m, which: string) =>
        which === 'katex' ? `<link rel="stylesheet" href="${PREVIEW_KATEX_CSS}">` : `<style>${which === 'site' ? siteCss : which === 'css' ? css : ''}</style>`,
      )
      // the site's scripts and mermaid as the site loads them, and the frame's own (scroll sync); not the
      // theme script: the preview follows the app's theme
      .replace(SCRIPT_TAG, (_m, attrs: string, which: string) => {
        if (which === 'js') return `<script${attrs} src="${PREVIEW_SITE_JS}"></script><script${attrs} src="${PREVIEW_FRAME_JS}"></script>`;
        return which === 'mermaid' ? `<script${attrs} src="${PREVIEW_MERMAID_JS}"></script>` : '';
      })
      .replace(/<html([^>]*)>/, (_m, attrs: string) => `<html${attrs.replace(/ data-theme="[a-z]+"/, '')} data-theme="${options.theme === 'dark' ? 'dark' : 'light'}">`);
    return { ok: true, html, title: page.title };
  } catch (err) {
    const e = err as { name?: string; message?: string; line?: number };
    return { ok: false, message: e?.message ?? String(err), ...(e?.line ? { line: e.line } : {}) };
  }
}
