import fs from 'node:fs';
import path from 'node:path';
import { newId } from '@quire/shared/ids';
import type { PreviewInfo } from '@quire/shared/site/preview-banner';
import { bearer, type TestApp } from '../helpers/app';

/** One page of a hand-written deployment. */
export interface HandPage {
  path: string;
  title: string;
  /** the page's Markdown (its `.md` file) */
  markdown: string;
  hash?: string;
  audience?: string[];
}

/** A page document shaped like the theme's: skip link first in <body>. */
export function pageHtml(title: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
    `<body class="q-body"><a class="q-skip" href="#content">Skip to content</a><header class="q-header">Site</header>` +
    `<main id="content"><h1>${title}</h1><p>${'Ünïcödé text around the banner. '.repeat(20)}</p></main></body></html>`
  );
}

/** The files of a deployment in the builder's layout: manifest, each page's `.html` and `.md`, `404.html`, and `extra`. */
export function deploymentFiles(pages: HandPage[], extra: Record<string, string> = {}): Record<string, string> {
  const files: Record<string, string> = { '404.html': pageHtml('Page not found') };
  for (const p of pages) {
    files[`${p.path}.html`] = pageHtml(p.title);
    files[`${p.path}.md`] = p.markdown;
  }
  Object.assign(files, extra);
  files['manifest.json'] = JSON.stringify({
    version: 1,
    buildId: 'bld_hand',
    projectId: 'prj_hand',
    createdAt: new Date().toISOString(),
    home: pages[0]?.path ?? null,
    pages: pages.map((p) => ({
      path: p.path,
      title: p.title,
      file: `${p.path}.html`,
      ...(p.hash ? { hash: p.hash } : {}),
      ...(p.audience ? { audience: p.audience } : {}),
    })),
    redirects: [],
    notFound: '404.html',
    assets: [],
    files: [],
    generated: [...pages.flatMap((p) => [`${p.path}.html`, `${p.path}.md`]), '404.html', ...Object.keys(extra)],
  });
  return files;
}

/** Writes `files` under `dir`. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    const abs = path.join(dir, ...file.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

/**
 * Writes a deployment directory `sites/<projectId>/<buildId>` in the app's data dir, records its
 * Build and Deployment rows (Prisma: SQLite and PostgreSQL) and announces `deployment.changed`.
 * @param preview the preview channel name; omitted for production
 * @returns the deployment's absolute directory
 */
export async function deployByHand(t: TestApp, projectId: string, files: Record<string, string>, preview?: string): Promise<string> {
  const buildId = newId('build');
  const rel = `sites/${projectId}/${buildId}`;
  const dir = path.join(t.dataDir, rel);
  writeFiles(dir, files);
  const now = new Date();
  await t.ctx.db.prisma.build.create({
    data: { id: buildId, projectId, status: 'deployed', trigger: 'api', branch: 'main', isPreview: preview !== undefined, createdAt: now, deployedAt: now },
  });
  await t.ctx.db.prisma.deployment.create({
    data: { id: newId('deployment'), projectId, buildId, kind: preview !== undefined ? 'preview' : 'production', previewName: preview ?? '', dir: rel, createdAt: now },
  });
  t.ctx.events.emit('deployment.changed', { projectId });
  return dir;
}

/**
 * Creates a project (no repository needed for hand-written deployments) whose previews are open to
 * every reader (`protectPreviews: false`: these tests read the banner, not the preview gate); returns its id.
 */
export async function createBareProject(t: TestApp, slug: string): Promise<string> {
  const payload = { name: slug, slug, settings: { protectPreviews: false } };
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload });
  if (res.statusCode !== 201) throw new Error(`project create failed: ${res.statusCode} ${res.body}`);
  return (res.json().data as { id: string }).id;
}

/** `_quire/preview.json` content. */
export function previewJson(info: PreviewInfo): Record<string, string> {
  return { '_quire/preview.json': JSON.stringify(info) };
}

/** The preview banner (`<aside aria-label="Preview">…</aside>`) of a page, or undefined. */
export function bannerOf(html: string): string | undefined {
  return /<aside class="q-preview" aria-label="Preview">[\s\S]*?<\/aside>/.exec(html)?.[0];
}

/** Links in `html` as `{ href, text }`, tags stripped from the text and entities decoded. */
export function linksOf(html: string): Array<{ href: string; text: string; current: boolean }> {
  return [...html.matchAll(/<a\s([^>]*)>([\s\S]*?)<\/a>/g)].map((m) => ({
    href: decode(/(?:^|\s)href="([^"]*)"/.exec(m[1]!)?.[1] ?? ''),
    current: m[1]!.includes('aria-current="page"'),
    text: decode(m[2]!.replace(/<[^>]+>/g, '')).trim(),
  }));
}

/** Text of `html` with tags stripped and entities decoded. */
export function textOf(html: string): string {
  return decode(html.replace(/<[^>]+>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

function decode(s: string): string {
  return s.replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!);
}
