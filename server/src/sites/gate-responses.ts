import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { GATE_TITLE, renderGateArticle, type GateError } from '@quire/shared/site/gate-page';
import type { Denial } from '../access/denial-log';
import type { DeploymentSite } from './deployment-site';
import { readForm } from './form-body';
import { gateDocument, type GateChrome } from './gate-document';
import { hostName } from '../deployments/site-host';
import { gateChromeFor } from './page-filter';
import { sitePathOf } from '../deployments/site-path';
import { sendPrivate } from './respond';
import type { SiteAccess } from './site-access';

/**
 * What the gate's answers share (site-gate.ts, token-entry.ts, preview-gate.ts): the gate page,
 * the same-site path a visitor returns to, denial records, form posts and failures.
 */

/** `WWW-Authenticate` of the gate's 401 answers (RFC 9110 section 11.6.1: a 401 names a scheme; this one is the audience token). */
export const WWW_AUTHENTICATE: readonly string[] = ['WWW-Authenticate', 'Quire-Audience-Token'];
const EMPTY: readonly string[] = [];

/**
 * The gate page (401) in the site's chrome (standalone when the deployment has none), its form
 * returning to `next`; the chrome names only pages the access rules let this reader open
 * (page-filter.ts `gateChromeFor`).
 */
export function sendGatePage(
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  next: string,
  error: GateError | undefined,
  extra: readonly string[] = EMPTY,
): void {
  const article = renderGateArticle({ next, ...(error ? { error } : {}) });
  const send = (chrome: GateChrome | null) => sendPrivate(req, res, 401, gateDocument(chrome, article, GATE_TITLE), [...extra, ...WWW_AUTHENTICATE]);
  void gateChromeFor(req, site, access).then(({ chrome }) => send(chrome), () => send(null));
}

/** The request's path without its query (what the gate form returns to). */
export function requestPath(req: IncomingMessage): string {
  return safeNext((req.url ?? '/').split('?')[0]);
}

/**
 * A same-site path to send a visitor to after the gate form: `raw` when it is a root-relative path
 * of this site (validated and re-encoded through `sitePathOf`; no `//host`, no backslashes, no
 * scheme, no `..`), else `/`. The query is dropped.
 */
export function safeNext(raw: string | null | undefined): string {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  const target = sitePathOf(raw);
  if (!target || target.path === '') return '/';
  return `/${target.path.split('/').map(encodeURIComponent).join('/')}${target.trailingSlash ? '/' : ''}`;
}

/** A denial record of a request of `site` (`recordDenial`): host from the request, reason and deciding rule. */
export function denialOf(req: IncomingMessage, site: DeploymentSite, path: string, ip: string, reason: Denial['reason'], ruleId?: string): Denial {
  return { projectId: site.projectId, host: hostName(req.headers.host ?? ''), path, ip, reason, ...(ruleId ? { ruleId } : {}) };
}

/**
 * Whether a form post comes from the site itself: a browser's `Origin` (and `Sec-Fetch-Site`) must
 * name this host; requests without them (non-browser clients) pass.
 */
function isSameSite(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host.toLowerCase() === (req.headers.host ?? '').toLowerCase();
  } catch {
    return false;
  }
}

/** Reads a form post, or answers why it cannot (403 cross-site, 413 too large, 415 not a form). */
export async function formOf(req: IncomingMessage, res: ServerResponse): Promise<URLSearchParams | null> {
  if (!isSameSite(req)) {
    req.resume();
    sendPrivate(req, res, 403, 'Forms are accepted from this site only.\n', EMPTY, 'text/plain; charset=utf-8');
    return null;
  }
  const form = await readForm(req);
  if (form instanceof URLSearchParams) return form;
  if (form === 'too_large') sendPrivate(req, res, 413, 'The form is too large.\n', ['Connection', 'close'], 'text/plain; charset=utf-8');
  else if (form === 'unsupported_type') sendPrivate(req, res, 415, 'Send the form as application/x-www-form-urlencoded.\n', EMPTY, 'text/plain; charset=utf-8');
  else res.destroy();
  return null;
}

/** Answers an unexpected failure (logged) with 503, unless an answer already started. */
export function fail(req: IncomingMessage, res: ServerResponse, log: FastifyBaseLogger, err: unknown): void {
  log.error({ err, url: req.url }, 'site request failed');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendPrivate(req, res, 503, 'The site cannot answer right now; try again.\n', ['Retry-After', '5'], 'text/plain; charset=utf-8');
}
