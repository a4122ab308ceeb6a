import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { renderNoticeArticle, type GateError } from '@quire/shared/site/gate-page';
import type { SiteAccessDecision } from '../access/decide';
import { AUDIENCE_COOKIE, clearCookie, readCookie } from './cookies';
import type { CachedFile } from './cached-file';
import type { DeploymentSite, FileAnswer, SiteAnswer } from './deployment-site';
import { gateDocument } from './gate-document';
import { denialOf, fail, requestPath, sendGatePage, WWW_AUTHENTICATE } from './gate-responses';
import { previewLink, previewOpen, previewPass, refusePrivatePreview } from './preview-gate';
import { sitePathOf } from '../deployments/site-path';
import { sendAnswer, sendPlainNotFound, sendPrivate } from './respond';
import type { SiteAccess } from './site-access';
import type { SiteEndpoint } from './site-endpoints';
import { magicLink, MAGIC_LINK_PARAM, tokenForm } from './token-entry';
import { answerSiteSearch } from './site-search';
import { formForReader, NO_REFUSAL, type ReaderForm, type Refusal } from './page-filter';
import { sendPersonal } from './personalise';

/**
 * The access gate of a site (decisions.md sections 6 and 9), on every surface of every deployment
 * (production, previews, versions) the same way:
 *
 * - every file answer goes through the one access decision (`access/decide.ts`: token, IP
 *   allowlists, access rules, page gate) after the deployment resolved the path, so whatever form
 *   the path took (`.md`, `.html`, trailing slash, percent-encoding, `//`) the gated page's files
 *   are what is judged, by the page path;
 * - without access: the gate page (401, the token form, nothing of the page) for HTML, a 401 text
 *   for other files (the page's `.md`), a 403 page for addresses outside an IP allowlist; the
 *   denial is recorded with its reason;
 * - pages with `{user.<field>}` placeholders get the claims of the reader's token put in
 *   (personalise.ts: private, cached per claim set), so their token is read for them too;
 * - with access: the file as the visitor's tags show it (`DeploymentSite.variant`: navigation entries
 *   of the gated pages they can open included, the others cut out); the files naming pages (built
 *   HTML pages, the not-found page and its suggestions, `llms.txt`, `llms-full.txt`, `sitemap.xml`)
 *   also without the pages the project's access rules and path-scoped IP allowlists refuse them
 *   (page-filter.ts);
 * - tokens come from `x-audience-token`, else the `quire_audience` cookie, which the magic link
 *   (`?_quire_token=` on any path: cookie and 302 to `/`) and the gate form
 *   (`POST /_quire/token`: cookie and 303 to the page) set;
 * - closed previews (of a project with `settings.protectPreviews`, the default, or with a preview
 *   link) open only with the `quire_preview` cookie a preview link (`/_quire/link/<token>`,
 *   optionally with a password) or a member pass (`/_quire/pass/<pass>`) sets (preview-gate.ts).
 *
 * A request without a token for a file that is not gated, on a project whose rules are cached, is
 * decided and answered synchronously (no await, no database): the hot path costs one decision call
 * and, for a built page, one cached policy lookup (a project without rules leaves the page as built).
 */

/** Request header carrying a token for non-browser clients. */
export const TOKEN_HEADER = 'x-audience-token';
const NEEDS_TOKEN_TEXT =
  'This page needs access: open the access link you were sent, or send your audience token in the x-audience-token header.\n';
const EMPTY: string[] = [];
const LISTING_REFUSED_TEXT = 'This file names pages you cannot open, and this deployment cannot leave them out; it is available again once the site is built anew.\n';

/**
 * Serves one request of a loaded deployment through the gate (see the module comment).
 * @param endpoint the site endpoint the URL names (site-endpoints.ts `siteEndpointOf`)
 */
export function serveThroughGate(
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  log: FastifyBaseLogger,
  endpoint: SiteEndpoint | undefined,
): void {
  if (site.previewName !== undefined && endpoint?.kind !== 'link' && endpoint?.kind !== 'pass') {
    const open = previewOpen(req, site, access);
    if (open === false) return refusePrivatePreview(req, res, site, access);
    if (open instanceof Promise) {
      open.then(
        (ok) => (ok ? route(req, res, site, access, log, endpoint) : refusePrivatePreview(req, res, site, access)),
        (err: unknown) => fail(req, res, log, err),
      );
      return;
    }
  }
  route(req, res, site, access, log, endpoint);
}

function route(
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  log: FastifyBaseLogger,
  endpoint: SiteEndpoint | undefined,
): void {
  if (endpoint?.kind === 'token') return void tokenForm(req, res, site, access).catch((err: unknown) => fail(req, res, log, err));
  if (endpoint?.kind === 'link') return void previewLink(req, res, site, access, endpoint.token).catch((err: unknown) => fail(req, res, log, err));
  if (endpoint?.kind === 'pass') return previewPass(req, res, site, access, endpoint.pass);
  if (endpoint?.kind === 'search') return void answerSiteSearch(req, res, site, access, log);
  if (endpoint?.kind === 'handler') return void access.endpoints[endpoint.name](req, res, site, access, log, endpoint.rest).catch((err: unknown) => fail(req, res, log, err));
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  if (q !== -1 && url.includes(MAGIC_LINK_PARAM, q)) {
    const token = new URLSearchParams(url.slice(q + 1)).get(MAGIC_LINK_PARAM);
    if (token !== null) return void magicLink(req, res, site, access, token).catch((err: unknown) => fail(req, res, log, err));
  }
  const answer = site.answerUrl(url);
  if (answer instanceof Promise) {
    answer.then(
      (a) => gate(req, res, site, access, log, a),
      (err: unknown) => {
        log.error({ err, url: req.url }, 'site file cannot be read');
        if (!res.headersSent) sendPlainNotFound(req, res);
      },
    );
  } else gate(req, res, site, access, log, answer);
}

/** The request's token: `x-audience-token`, else the cookie. */
function tokenOf(req: IncomingMessage): { token: string; fromCookie: boolean } | undefined {
  const header = req.headers[TOKEN_HEADER];
  if (typeof header === 'string' && header.trim() !== '') return { token: header, fromCookie: false };
  const cookie = readCookie(req, AUDIENCE_COOKIE);
  return cookie ? { token: cookie, fromCookie: true } : undefined;
}

/** The path access rules judge: the page's path for a page's files, else the requested path (`index` for `/`). */
function accessPath(answer: SiteAnswer, url: string): string {
  if (answer.kind === 'file' && answer.page !== undefined) return answer.page;
  const target = sitePathOf(url);
  return target ? target.path || 'index' : '';
}

/** What {@link gate} decided on, kept for answering once the decision is known. */
interface GateRequest {
  req: IncomingMessage;
  res: ServerResponse;
  site: DeploymentSite;
  access: SiteAccess;
  log: FastifyBaseLogger;
  answer: SiteAnswer;
  /** the access decision's input (`access/decide.ts`) */
  input: { projectId: string; path: string; ip: string; pageAudience: string[] };
  given: { token: string; fromCookie: boolean } | undefined;
}

/**
 * Decides and answers a resolved request, synchronously when the decision is (the hot path: no
 * closure or promise is made for an answer decided at once).
 */
function gate(req: IncomingMessage, res: ServerResponse, site: DeploymentSite, access: SiteAccess, log: FastifyBaseLogger, answer: SiteAnswer): void {
  if (answer.kind === 'none') return sendPlainNotFound(req, res);
  const given = tokenOf(req);
  // A token changes the answer only for a gated file or a file naming gated pages; elsewhere it is
  // read only if the rules refuse the visitor without it (an access rule may open to its tags).
  // (and for a page personalised with the reader's claims: personalise.ts)
  const useful =
    given !== undefined && answer.kind === 'file' && (answer.audience !== undefined || answer.file.audience !== undefined || access.personal.isPersonal(answer));
  const input = {
    projectId: site.projectId,
    path: accessPath(answer, req.url ?? '/'),
    ip: access.clientIp(req),
    pageAudience: answer.kind === 'file' && answer.audience ? (answer.audience as string[]) : EMPTY,
  };
  const decision = access.decide(useful ? { ...input, token: given.token } : input);
  // the hot path: decided at once and allowed
  if (!(decision instanceof Promise) && decision.allowed) return deliver(req, res, site, access, log, answer, decision, useful && given.fromCookie);
  answerBy({ req, res, site, access, log, answer, input, given }, decision, useful);
}

/** Runs the access decision (with the visitor's token when `withToken`) and answers by it. */
function decideAndAnswer(g: GateRequest, withToken: boolean): void {
  answerBy(g, g.access.decide(withToken ? { ...g.input, token: g.given!.token } : g.input), withToken);
}

/** Answers by a decision, once it is known. */
function answerBy(g: GateRequest, decision: SiteAccessDecision | Promise<SiteAccessDecision>, withToken: boolean): void {
  if (!(decision instanceof Promise)) return settle(g, decision, withToken);
  decision.then((d) => settle(g, d, withToken)).catch((err: unknown) => fail(g.req, g.res, g.log, err));
}

/** Answers by a decision: the visitor's variant, or (after a retry with the token for an access rule) the refusal. */
function settle(g: GateRequest, decision: SiteAccessDecision, withToken: boolean): void {
  const cookieGiven = withToken && g.given!.fromCookie;
  if (decision.allowed) return deliver(g.req, g.res, g.site, g.access, g.log, g.answer, decision, cookieGiven);
  if (!withToken && g.given && decision.reason === 'access_rule') return decideAndAnswer(g, true);
  deny(g.req, g.res, g.site, g.access, g.answer, g.input, decision, cookieGiven);
}

/**
 * Sends what the visitor may read: their variant of the file (or the redirect); clears a cookie whose
 * token opens nothing. A page (or agent file) sent with 200 is counted as a view (`SiteAccess.recordView`).
 */
function deliver(
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  log: FastifyBaseLogger,
  answer: SiteAnswer,
  decision: SiteAccessDecision,
  cookieGiven: boolean,
): void {
  const extra = cookieGiven && decision.tokenRefusal ? ['Set-Cookie', clearCookie(req, AUDIENCE_COOKIE)] : undefined;
  if (answer.kind !== 'file') return sendAnswer(req, res, answer, undefined, extra);
  if (answer.namesPages || (answer.listsPages && answer.status === 200)) return deliverForReader(req, res, site, access, log, answer, decision, extra);
  deliverFile(req, res, site, access, log, answer, decision, extra);
}

/**
 * Sends a file as the visitor's tags show it (see {@link deliver}), or `readerForm`, the form the
 * page filter cut for them; the not-found page without the pages `refusal` names.
 */
function deliverFile(
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  log: FastifyBaseLogger,
  answer: FileAnswer,
  decision: SiteAccessDecision,
  extra: string[] | undefined,
  readerForm?: CachedFile,
  refusal: Refusal = NO_REFUSAL,
): void {
  if (answer.status === 200) access.recordView(req, site, answer);
  const visitorForm = readerForm ?? (decision.tags.length > 0 ? site.variant(answer, decision.tags) : answer.file);
  // the not-found page gets links to the pages closest to the requested path
  const form = answer.status !== 404 ? visitorForm : visitorForm instanceof Promise
    ? visitorForm.then((f) => site.notFoundFor(req.url ?? '/', f, decision.tags, refusal))
    : site.notFoundFor(req.url ?? '/', visitorForm, decision.tags, refusal);
  // a page with `{user.<field>}` placeholders gets the reader's claims put in (personalise.ts)
  const onError = (err: unknown) => fail(req, res, log, err);
  const send = (f: CachedFile) => sendPersonal(req, res, access.personal, site, answer, f, decision.grant?.claims, extra, onError);
  if (!(form instanceof Promise)) return send(form);
  form.then(send, onError);
}

/**
 * Sends a file naming pages (a built HTML page, the not-found page, `llms.txt`, `llms-full.txt`,
 * `sitemap.xml`) without the pages the reader's access rules and path-scoped allowlists refuse them
 * (page-filter.ts); as any file when none can.
 */
function deliverForReader(
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  log: FastifyBaseLogger,
  answer: FileAnswer,
  decision: SiteAccessDecision,
  extra: string[] | undefined,
): void {
  let view: ReaderForm | Promise<ReaderForm>;
  try {
    view = formForReader(site, access, answer, () => ({ filePath: accessPath(answer, req.url ?? '/'), token: tokenOf(req)?.token, tags: decision.tags, ip: access.clientIp(req) }));
  } catch (err) {
    return fail(req, res, log, err);
  }
  // a project without rules (the common case): the file as built, at once
  if (!(view instanceof Promise) && view.file === 'unfiltered') return deliverFile(req, res, site, access, log, answer, decision, extra);
  const send = (v: ReaderForm) => {
    if (v.file === 'unfiltered') return deliverFile(req, res, site, access, log, answer, decision, extra);
    if (v.file === 'refused') return sendPrivate(req, res, 403, LISTING_REFUSED_TEXT, extra ?? EMPTY, 'text/plain; charset=utf-8');
    deliverFile(req, res, site, access, log, answer, decision, extra, v.file, v.refusal);
  };
  if (!(view instanceof Promise)) return send(view);
  view.then(send, (err: unknown) => fail(req, res, log, err));
}

/** Refuses a request: records the denial, then the gate page (or its text form, or the network refusal). */
function deny(
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  answer: SiteAnswer,
  input: { path: string; ip: string },
  decision: SiteAccessDecision,
  cookieGiven: boolean,
): void {
  const reason = decision.reason ?? 'access_rule';
  access.recordDenial(denialOf(req, site, input.path, input.ip, reason, decision.ruleId));
  const extra = cookieGiven && decision.tokenRefusal ? ['Set-Cookie', clearCookie(req, AUDIENCE_COOKIE)] : EMPTY;
  if (reason === 'ip_allowlist') {
    const article = renderNoticeArticle('This site is not available from your network', 'Its owner allows only some networks to read it. Ask them for access.');
    return sendPrivate(req, res, 403, gateDocument(null, article, 'Not available'), extra);
  }
  if (answer.kind === 'file' && !answer.path.endsWith('.html')) {
    return sendPrivate(req, res, 401, NEEDS_TOKEN_TEXT, [...extra, ...WWW_AUTHENTICATE], 'text/plain; charset=utf-8');
  }
  const error: GateError | undefined = decision.tokenRefusal ? 'invalid_token' : decision.tags.length > 0 ? 'no_access' : undefined;
  sendGatePage(req, res, site, access, requestPath(req), error, extra);
}

