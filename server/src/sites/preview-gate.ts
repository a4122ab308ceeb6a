import type { IncomingMessage, ServerResponse } from 'node:http';
import { PREVIEW_PASSWORD_FIELD, renderPreviewAccessArticle, type PreviewAccessOptions, type PreviewAccessState } from '@quire/shared/site/gate-page';
import { PREVIEW_COOKIE, readCookie, setCookie } from './cookies';
import type { DeploymentSite } from './deployment-site';
import { gateDocument } from './gate-document';
import { denialOf, formOf } from './gate-responses';
import { MEMBER_PREVIEW_COOKIE_SECONDS, signPreviewProof, verifyPreviewPass, verifyPreviewProof } from '../access/preview-access';
import { sitePathOf } from '../deployments/site-path';
import { sendPlainNotFound, sendPrivate } from './respond';
import type { SiteAccess } from './site-access';
import { LINK_PREFIX } from './site-endpoints';

/**
 * Previews and their links (decisions.md section 9: "Preview links may carry a password and an
 * expiry"; section 11: "Previews that have a preview link open only through a link
 * (`settings.protectPreviews`, default true)"): a preview of a project that protects its previews,
 * or one that has a preview link, is closed: it opens only with the `quire_preview` cookie
 * (preview-access.ts) that `/_quire/link/<token>` sets (after the link's password when it has one)
 * or that `/_quire/pass/<pass>` sets for a team member (a member pass from the API,
 * services/preview-passes.ts). Other previews stay open to everyone. The audience gate applies
 * inside a preview as on production.
 */

/**
 * Whether a preview deployment may be read: always while it is not closed
 * ({@link SiteAccess.previewClosed}); then only with a `quire_preview` cookie of this very preview
 * proving a member pass, or an active link of this preview.
 */
export function previewOpen(req: IncomingMessage, site: DeploymentSite, access: SiteAccess): boolean | Promise<boolean> {
  const closed = access.previewClosed(site.projectId, site.previewName!);
  if (closed === false) return true;
  const check = (): boolean | Promise<boolean> => {
    const cookie = readCookie(req, PREVIEW_COOKIE);
    const grant = cookie ? verifyPreviewProof(access.previewCookieKey(), cookie, site.projectId, site.previewName!) : null;
    if (!grant) return false;
    if (grant.kind === 'member') return true;
    const link = access.previewLink(grant.linkToken);
    const active = (l: Awaited<typeof link>) => l !== null && l.state === 'active' && l.projectId === site.projectId && l.previewName === site.previewName;
    return link instanceof Promise ? link.then(active) : active(link);
  };
  return closed instanceof Promise ? closed.then((yes) => (yes ? check() : true)) : check();
}

/** A private preview without a valid preview cookie: 401, "open it with the preview link". */
export function refusePrivatePreview(req: IncomingMessage, res: ServerResponse, site: DeploymentSite, access: SiteAccess): void {
  req.resume();
  const path = sitePathOf(req.url ?? '/')?.path;
  access.recordDenial(denialOf(req, site, path || 'index', access.clientIp(req), 'preview_link'));
  sendPreviewPage(req, res, 401, 'private');
}

/** A preview access page (standalone: nothing of the preview shows), private; `extra` are more headers (name, value, ...). */
function sendPreviewPage(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  state: PreviewAccessState,
  options: PreviewAccessOptions = {},
  extra: string[] = [],
): void {
  const title = state === 'password' || state === 'throttled' ? 'Protected preview' : 'Preview not available';
  sendPrivate(req, res, status, gateDocument(null, renderPreviewAccessArticle(state, options), title), extra);
}

/**
 * `/_quire/link/<token>` on a preview host: an unknown link (or one of another preview) 404, an
 * expired or revoked one 410; an active one without a password sets the preview cookie and
 * redirects to `/` (302); with a password, GET shows the form and POST checks it (wrong: the form
 * again with an error, 401; after too many wrong ones, per link or per address, a page saying how
 * long to wait, 429 with `Retry-After`, without checking the password: access/preview-links.ts
 * `PREVIEW_PASSWORD_LIMITS`).
 */
export async function previewLink(req: IncomingMessage, res: ServerResponse, site: DeploymentSite, access: SiteAccess, token: string): Promise<void> {
  if (site.previewName === undefined) {
    req.resume();
    return sendPlainNotFound(req, res);
  }
  const link = await access.findPreviewLink(token);
  if (!link || link.projectId !== site.projectId || link.previewName !== site.previewName) {
    req.resume();
    return sendPreviewPage(req, res, 404, 'unknown');
  }
  const ip = access.clientIp(req);
  if (link.state !== 'active') {
    req.resume();
    access.recordDenial(denialOf(req, site, '_quire/link', ip, 'preview_link', link.id));
    return sendPreviewPage(req, res, 410, link.state);
  }
  const action = `${LINK_PREFIX}${encodeURIComponent(token)}`;
  if (link.hasPassword) {
    if (req.method !== 'POST') return sendPreviewPage(req, res, 200, 'password', { action });
    const form = await formOf(req, res);
    if (!form) return;
    const checked = await access.checkPreviewLinkPassword(link.id, ip, form.get(PREVIEW_PASSWORD_FIELD) ?? '');
    if (checked.result !== 'right') access.recordDenial(denialOf(req, site, '_quire/link', ip, 'preview_link', link.id));
    if (checked.result === 'throttled') {
      return sendPreviewPage(req, res, 429, 'throttled', { retryAfter: checked.retryAfter }, ['Retry-After', String(checked.retryAfter)]);
    }
    if (checked.result === 'wrong') return sendPreviewPage(req, res, 401, 'password', { action, wrongPassword: true });
  } else req.resume();
  const proof = signPreviewProof(access.previewCookieKey(), { projectId: site.projectId, previewName: site.previewName, linkToken: token });
  sendPrivate(req, res, 302, '', ['Location', '/', 'Set-Cookie', setCookie(req, PREVIEW_COOKIE, proof)]);
}

/**
 * `/_quire/pass/<pass>` on a preview host: a member pass of this preview (preview-access.ts) sets a
 * member's preview cookie ({@link MEMBER_PREVIEW_COOKIE_SECONDS}) and redirects (302) to the path it names;
 * an invalid or expired one (or one of another preview) answers 410 with a page saying to open the
 * preview again from the app. On a production host: the plain 404.
 */
export function previewPass(req: IncomingMessage, res: ServerResponse, site: DeploymentSite, access: SiteAccess, pass: string): void {
  req.resume();
  if (site.previewName === undefined) return sendPlainNotFound(req, res);
  const path = verifyPreviewPass(access.previewPassKey(), pass, site.projectId, site.previewName);
  if (path === null) return sendPreviewPage(req, res, 410, 'pass');
  const proof = signPreviewProof(
    access.previewCookieKey(),
    { projectId: site.projectId, previewName: site.previewName },
    Date.now(),
    MEMBER_PREVIEW_COOKIE_SECONDS,
  );
  sendPrivate(req, res, 302, '', ['Location', path, 'Set-Cookie', setCookie(req, PREVIEW_COOKIE, proof, MEMBER_PREVIEW_COOKIE_SECONDS)]);
}
