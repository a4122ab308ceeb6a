/**
 * The API host's root, `GET /` (e.g. `http://127.0.0.1:4000/`): a small HTML page for people who open
 * the server in a browser, linking the API reference (`/v1/docs`), explaining where sites are served
 * (`http://<slug>-docs.<QUIRE_SITES_DOMAIN>:<port>/`, decisions.md section 6: the list of an
 * organization's sites is private, so only the pattern is shown) and how to start the desktop app.
 * A client that asks for JSON and not HTML (`Accept: application/json`) still gets the API's 404
 * envelope, as for any unknown path. Public, answered before authentication and rate limits (like
 * the operations endpoints, plugins/health.ts); a site host still gets its site (sites run first).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { escapeHtml } from '@quire/shared/site/escape';
import { ApiError } from '@quire/shared/errors';
import { apiBaseUrl } from '../env';
import { sendApiError } from './errors';
import { DOCS_PREFIX } from './openapi';
import { projectSiteUrl } from '../services/projects';

/** True when the request's Accept header prefers JSON to HTML (absent or `*\/*`: HTML). */
export function wantsJson(req: Pick<FastifyRequest, 'headers'>): boolean {
  const accept = String(req.headers.accept ?? '').toLowerCase();
  return /\bapplication\/(?:[\w.+-]*\+)?json\b/.test(accept) && !/\btext\/html\b/.test(accept);
}

/** The page's HTML: links to the API reference, the site address pattern, the desktop app command. */
export function homePageHtml(apiBase: string, siteExample: string): string {
  const docs = `${apiBase}${DOCS_PREFIX}`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Quire server</title><style>' +
    'body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328;background:#f7f8fa}' +
    'main{max-width:40rem;margin:10vh auto;padding:0 24px}h1{font-size:1.75rem;margin:0 0 4px}p{margin:0 0 1rem}' +
    'ul{padding:0;list-style:none}li{margin:0 0 12px;padding:14px 18px;border:1px solid #d8dde3;border-radius:10px;background:#fff}' +
    'a{color:#4338ca;font-weight:600}code{font:0.9em ui-monospace,monospace;background:#eef0f3;padding:1px 5px;border-radius:5px}' +
    '.lead{color:#59636e}@media (prefers-color-scheme:dark){body{color:#d9dde3;background:#0e1116}li{background:#161a21;border-color:#2a303a}a{color:#a5b4fc}code{background:#232831}.lead{color:#9aa3ae}}' +
    '</style></head><body><main><h1>Quire is running</h1>' +
    '<p class="lead">This address serves the Quire API. Documentation sites and the desktop app live at their own addresses.</p><ul>' +
    `<li><a href="${escapeHtml(docs)}">API reference</a><br>Every REST endpoint, with its parameters and errors (OpenAPI at <code>${escapeHtml(apiBase)}/v1/openapi.json</code>).</li>` +
    `<li><strong>Documentation sites</strong><br>Each project's site is served at <code>http://&lt;slug&gt;-docs.…</code>, for example <code>${escapeHtml(siteExample)}</code>. ` +
    'The list of your projects and their addresses is in the API (<code>GET /v1/projects</code>) and in the desktop app.</li>' +
    '<li><strong>Desktop app</strong><br>Write and review docs in Quire Desktop: run <code>pnpm desktop:web</code> and open the address it prints (<code>http://127.0.0.1:5199/</code> by default).</li>' +
    '</ul></main></body></html>'
  );
}

/** The page runs no script and loads nothing: only its own inline style. */
const HOME_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export default fp(
  async (app: FastifyInstance) => {
    const { config } = app.ctx;
    const html = homePageHtml(apiBaseUrl(config), projectSiteUrl(config, 'my-project'));
    app.get('/', { config: { ops: true, public: true }, schema: { hide: true } }, (req, reply) => {
      if (wantsJson(req)) return sendApiError(reply, new ApiError('not_found', `No route ${req.method} /.`));
      return reply
        .type('text/html; charset=utf-8')
        .headers({ 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', 'content-security-policy': HOME_CSP })
        .send(html);
    });
  },
  { name: 'home-page', dependencies: ['errors', 'health'] },
);
