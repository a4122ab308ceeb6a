/**
 * How `quire-docs dev` answers a request, in site hosting's order (server/src/sites/deployment-site.ts,
 * decisions.md section 6): `/` → the home page; the config's redirects (308 permanent, 307); the theme
 * assets (`/_quire/assets/…`); a published file of the docs root at its own path (images, downloads:
 * shared/src/site/published-files.ts), typed by the rule for repository files (repository-files.ts);
 * `/<page>.md` → the page's Markdown; the page (`/guides/setup`, `/guides/setup.html`, `/guides/` →
 * `guides/index`); otherwise the site's 404 page. Request paths are read by the site's rule
 * (site-path.ts); HTML documents carry the site's CSP (csp.ts) and the live reload script. Gated pages
 * (frontmatter `audience`) are shown to everyone: the writer previews every page.
 */
import fs from 'node:fs';
import path from 'node:path';
import mime from 'mime';
import { matchRedirect } from '@quire/shared/docs/nav/index';
import { playgroundDisplay, playgroundOrigins, playgroundServersIn } from '@quire/shared/docs/openapi/playground';
import { escapeHtml } from '@quire/shared/site/escape';
import { siteCsp } from '@quire/shared/site/csp';
import { isStaticFile } from '@quire/shared/site/published-files';
import { INERT_CSP, repositoryFileType } from '@quire/shared/site/repository-files';
import { pageDocumentInput } from '@quire/shared/site/site-documents';
import { sitePathOf } from '@quire/shared/site/site-path';
import type { DevSite } from './dev-site';
import { RELOAD_SCRIPT, RELOAD_SCRIPT_PATH, withReloadScript } from './live-reload';

/** What the dev server sends. */
export type DevAnswer =
  | { status: number; headers: Record<string, string>; body: string | Buffer }
  | { status: 307 | 308; headers: { location: string }; body: '' };

/** The site being served, or why it cannot be loaded (`file:line: reason`). */
export interface DevState {
  site?: DevSite;
  error?: string;
}

const BASE_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'strict-origin-when-cross-origin', 'cache-control': 'no-store' };

/** Answers one request (`rawUrl`: the request target, `/guides/setup?x=1`). */
export function answer(state: DevState, rawUrl: string): DevAnswer {
  const at = sitePathOf(rawUrl);
  if (!at) return text(400, 'Bad request path');
  if (`/${at.path}` === RELOAD_SCRIPT_PATH) return { status: 200, headers: { ...BASE_HEADERS, 'content-type': 'text/javascript; charset=utf-8' }, body: RELOAD_SCRIPT };
  const { site } = state;
  if (!site || state.error) return errorDocument(state.error ?? 'The site is loading.', site);
  const p = at.path;
  if (p === '') return pageAnswer(site, site.layout.home);
  if (p.startsWith('_quire/')) {
    const asset = site.assetsByUrl.get(`/${p}`);
    return asset ? { status: 200, headers: { ...BASE_HEADERS, 'content-type': typeOf(p) }, body: asset.content } : notFound(site);
  }
  const redirect = site.project.config.redirects.length ? matchRedirect(site.project.config.redirects, `/${p}${at.trailingSlash ? '/' : ''}`) : undefined;
  if (redirect) return { status: redirect.status, headers: { location: redirect.location }, body: '' };
  if (isStaticFile(p) && site.files.exists(p)) return publishedFile(site, p);
  if (p.endsWith('.md') && site.pages.get(p.slice(0, -3))?.page) {
    const md = site.pages.get(p.slice(0, -3))!.page!.markdown;
    return { status: 200, headers: { ...BASE_HEADERS, 'content-type': 'text/markdown; charset=utf-8' }, body: md };
  }
  const bare = p.endsWith('.html') ? p.slice(0, -5) : p;
  const page = site.pages.has(bare) ? bare : site.pages.has(`${bare}/index`) ? `${bare}/index` : undefined;
  return page ? pageAnswer(site, page) : notFound(site);
}

/** A page's document, as the build writes it, with the reload script; a page that cannot be rendered: its error. */
function pageAnswer(site: DevSite, pagePath: string): DevAnswer {
  const dev = site.pages.get(pagePath);
  if (!dev?.page) return errorDocument(dev?.error ?? `${pagePath}: no such page`, site);
  const place = site.layout.pages.find((p) => p.path === pagePath)!;
  return html(200, site.shell.page(pageDocumentInput(place, dev.page, '')), connectOrigins(site));
}

function notFound(site: DevSite): DevAnswer {
  return html(404, site.shell.notFound(), connectOrigins(site));
}

/** A file of the docs root, typed as site hosting types repository files. */
function publishedFile(site: DevSite, file: string): DevAnswer {
  const kind = repositoryFileType(mime.getType(file));
  const type = kind.type.startsWith('text/') ? `${kind.type}; charset=utf-8` : kind.type;
  return {
    status: 200,
    headers: {
      ...BASE_HEADERS,
      'content-type': type,
      ...(kind.inert ? { 'content-security-policy': INERT_CSP } : {}),
      ...(kind.download ? { 'content-disposition': 'attachment' } : {}),
    },
    body: fs.readFileSync(path.join(site.docsRoot, file)),
  };
}

/**
 * The origins the site's API playground sends to (docs.json `api.playground.display: interactive`,
 * shared/src/docs/openapi/playground.ts): the servers of the rendered pages, as the build lists them
 * in the manifest's `connectSrc`.
 */
function connectOrigins(site: DevSite): string[] {
  if (playgroundDisplay(site.project.config.raw) !== 'interactive') return [];
  const origins = new Set<string>();
  for (const { page } of site.pages.values()) {
    if (!page) continue;
    for (const o of playgroundOrigins(page.frontmatter.servers)) origins.add(o);
    for (const o of playgroundOrigins(playgroundServersIn(page.html))) origins.add(o);
  }
  return [...origins].sort();
}

function html(status: number, body: string, origins: readonly string[] = []): DevAnswer {
  return {
    status,
    headers: { ...BASE_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': siteCsp(origins) },
    body: withReloadScript(body),
  };
}

/** A build error as a page of its own (status 500), reloaded when the files change. */
function errorDocument(message: string, site: DevSite | undefined): DevAnswer {
  const name = escapeHtml(site?.project.config.name || 'Documentation');
  const body =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Build error · ${name}</title>` +
    '<style>body{font:16px/1.5 system-ui,sans-serif;margin:3rem auto;max-width:48rem;padding:0 1rem}pre{white-space:pre-wrap;background:#fee;padding:1rem}</style>' +
    `</head><body><main><h1>This page cannot be built</h1><pre>${escapeHtml(message)}</pre>` +
    '<p>Fix the file and save it: the page reloads by itself.</p></main></body></html>';
  return html(500, body);
}

function text(status: number, body: string): DevAnswer {
  return { status, headers: { ...BASE_HEADERS, 'content-type': 'text/plain; charset=utf-8' }, body };
}

function typeOf(file: string): string {
  const type = mime.getType(file) ?? 'application/octet-stream';
  return type.startsWith('text/') || type === 'application/javascript' ? `${type}; charset=utf-8` : type;
}
