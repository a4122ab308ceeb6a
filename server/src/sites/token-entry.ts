import type { IncomingMessage, ServerResponse } from 'node:http';
import { GATE_NEXT_FIELD, GATE_TOKEN_FIELD } from '@quire/shared/site/gate-page';
import { AUDIENCE_COOKIE, setCookie } from './cookies';
import type { DeploymentSite } from './deployment-site';
import { denialOf, formOf, safeNext, sendGatePage } from './gate-responses';
import { sitePathOf } from '../deployments/site-path';
import { sendMethodNotAllowed, sendPrivate } from './respond';
import type { SiteAccess } from './site-access';

/**
 * The two ways a browser hands the site an audience token (decisions.md section 6): the magic link
 * (`<site>/?_quire_token=<token>` on any path) and the gate form (`POST /_quire/token`). A valid
 * token becomes the `quire_audience` cookie (cookies.ts); an invalid one gets the gate page with an
 * error (401) and sets nothing.
 */

/** The magic-link query parameter (decisions.md: brand word `quire`). */
export const MAGIC_LINK_PARAM = '_quire_token';
/** What a cookie may hold (RFC 6265 cookie-octets; tokens are base64url parts joined by `.`). */
const COOKIE_SAFE = /^[A-Za-z0-9._-]+$/;

/** `POST /_quire/token` (the gate form): a valid token sets the cookie and returns to the page (303). */
export async function tokenForm(req: IncomingMessage, res: ServerResponse, site: DeploymentSite, access: SiteAccess): Promise<void> {
  if (req.method !== 'POST') return sendMethodNotAllowed(res, 'POST');
  const form = await formOf(req, res);
  if (!form) return;
  const token = (form.get(GATE_TOKEN_FIELD) ?? '').trim();
  const next = safeNext(form.get(GATE_NEXT_FIELD));
  const verified = token && COOKIE_SAFE.test(token) ? await access.verifyToken(site.projectId, token) : undefined;
  if (!verified?.ok) {
    access.recordDenial(denialOf(req, site, next.slice(1) || 'index', access.clientIp(req), 'invalid_token'));
    return sendGatePage(req, res, site, access, next, 'invalid_token');
  }
  sendPrivate(req, res, 303, '', ['Location', next, 'Set-Cookie', setCookie(req, AUDIENCE_COOKIE, token)]);
}

/** The magic link: a valid token sets the cookie and redirects to `/` (302; never elsewhere). */
export async function magicLink(req: IncomingMessage, res: ServerResponse, site: DeploymentSite, access: SiteAccess, raw: string): Promise<void> {
  const token = raw.trim();
  const verified = token && COOKIE_SAFE.test(token) ? await access.verifyToken(site.projectId, token) : undefined;
  if (!verified?.ok) {
    const path = sitePathOf(req.url ?? '/')?.path;
    access.recordDenial(denialOf(req, site, path || 'index', access.clientIp(req), 'invalid_token'));
    return sendGatePage(req, res, site, access, '/', 'invalid_token');
  }
  sendPrivate(req, res, 302, '', ['Location', '/', 'Set-Cookie', setCookie(req, AUDIENCE_COOKIE, token)]);
}

