/**
 * The site's own feedback endpoint (decisions.md section 6: the site's endpoints under `/_quire/`;
 * section 7), for the site's "Was this page helpful?" and section vote widgets (site/assets/feedback.js):
 *
 * - `POST /_quire/feedback/page`, `POST /_quire/feedback/section`: the bodies of
 *   `POST /v1/projects/{projectId}/feedback/page|section` (shared/src/api/feedback.ts), answered the
 *   same way (201 `{data: record}`, `pagePath` as sent), through the same service and the same per-IP
 *   write limit (services/feedback.ts), for the project the site host serves; `Idempotency-Key` as on
 *   the API (site-idempotency.ts). Feedback given on a preview host is stored as preview feedback,
 *   which no statistic counts;
 * - `GET /_quire/feedback/page?pagePath=`, `GET /_quire/feedback/section?pagePath=`: the stats;
 * - any other method: 405 with `Allow: GET, HEAD, POST`; any other path under `/_quire/feedback`: 404.
 *
 * `pagePath` is the page as this site serves it (`guides/setup`; `/` or '' is the site's home page;
 * leading and trailing slashes ignored: the record counts for that page, and keeps `pagePath` as sent). A page the deployment
 * does not have answers 404 `not_found`
 * (a documentation version's pages, `/<label>/...`, are taken when the label is one of the site's
 * versions); so does a page the reader may not read: a gated page (frontmatter `audience`) whose
 * tags the reader's audience token does not open, or a page the site's access rules or IP allowlists
 * refuse to the reader (site-reader.ts), so feedback never tells a gated page exists.
 * Answers use the API's envelope; bad input is 400 `invalid_request` with `details.field`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, invalidField } from '@quire/shared/errors';
import { invalidInput } from '@quire/shared/api/invalid-input';
import { findUnstorableText } from '@quire/shared/text';
import { CreatePageFeedbackBodySchema, CreateSectionFeedbackBodySchema, FeedbackStatsQuerySchema, MAX_PAGE_PATH, normalizePagePath } from '@quire/shared/api/feedback';
import type { AppContext } from '../context';
import { presentedKey } from '../plugins/auth';
import {
  createPageFeedback,
  createSectionFeedback,
  feedbackAuthorOf,
  feedbackProject,
  limitFeedbackWrites,
  pageFeedbackStats,
  sectionFeedbackStats,
  type FeedbackSource,
} from '../services/feedback';
import type { DeploymentSite } from './deployment-site';
import type { SiteAccess } from './site-access';
import { claimSiteKey, settled } from './site-idempotency';
import { readJsonBody, sendSiteError, sendSiteJson, sendSiteMethodNotAllowed } from './site-json';
import { siteReaderOf, type SiteReader } from './site-reader';

/** Methods the endpoint answers. */
const ALLOWED = 'GET, HEAD, POST';

/** The site's home page path: the manifest's `home`, else its first visible page. */
function homePage(site: DeploymentSite): string | undefined {
  return site.manifest.home ?? site.manifest.pages.find((p) => !p.hidden)?.path ?? site.manifest.pages[0]?.path;
}

/** `raw` with its `pagePath` as a page of this site: normalized, the site root as the home page. */
function withSitePath(site: DeploymentSite, raw: Record<string, unknown>): Record<string, unknown> {
  if (typeof raw.pagePath !== 'string') return raw;
  const path = normalizePagePath(raw.pagePath);
  return { ...raw, pagePath: path === '' ? (homePage(site) ?? '') : path };
}

/** The audience tags of page `path` of the site (`[]`: public), or null when the site has no such page. */
function audienceOf(site: DeploymentSite, path: string): readonly string[] | null {
  const page = site.manifest.pages.find((p) => p.path === path);
  if (page) return page.audience ?? [];
  const slash = path.indexOf('/');
  const label = slash === -1 ? path : path.slice(0, slash);
  if (slash === -1 || !site.manifest.versions?.some((v) => v.label === label && !v.default)) return null;
  // a page of a documentation version: gated as the production page of the same path, when there is one
  return site.manifest.pages.find((p) => p.path === path.slice(slash + 1))?.audience ?? [];
}

/** @throws ApiError not_found unless `reader` may read page `path` of the site (see the module comment). */
async function requireReadable(site: DeploymentSite, reader: SiteReader, path: string): Promise<void> {
  const audience = audienceOf(site, path);
  if (audience === null || !reader.canRead(audience) || !(await reader.allow(path))) {
    throw new ApiError('not_found', `No page ${path} on this site.`, { field: 'pagePath', issue: 'no such page' });
  }
}

/** The query parameters of a raw request target. @throws ApiError invalid_request for unstorable text. */
function queryOf(rawUrl: string): Record<string, unknown> {
  const q = rawUrl.indexOf('?');
  const params = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
  const raw: Record<string, unknown> = {};
  const pagePath = params.get('pagePath');
  if (pagePath !== null) raw.pagePath = pagePath;
  const bad = findUnstorableText(raw);
  if (bad) throw new ApiError('invalid_request', `${bad.path}: ${bad.issue}`, { field: bad.path, issue: bad.issue });
  return raw;
}

/** Answers one request (see the module comment); errors below 500 are answered, others rejected. */
async function answer(ctx: AppContext, req: IncomingMessage, res: ServerResponse, site: DeploymentSite, access: SiteAccess, log: FastifyBaseLogger, kind: 'page' | 'section'): Promise<void> {
  const reader = await siteReaderOf(req, site, access, log);
  const personal = reader.token !== undefined;
  if (req.method === 'GET' || req.method === 'HEAD') {
    const raw = withSitePath(site, queryOf(req.url ?? '/'));
    const parsed = FeedbackStatsQuerySchema.safeParse(raw);
    if (!parsed.success) throw invalidInput(parsed.error, { input: raw });
    await requireReadable(site, reader, parsed.data.pagePath);
    const data = kind === 'page' ? await pageFeedbackStats(ctx, site.projectId, parsed.data.pagePath) : await sectionFeedbackStats(ctx, site.projectId, parsed.data.pagePath);
    return sendSiteJson(req, res, 200, { data }, personal);
  }
  const sent = await readJsonBody(req);
  const raw = withSitePath(site, sent);
  const project = await feedbackProject(ctx, site.projectId);
  /** Counts the write against the per-IP limit and tells who sent it from where (`page`: the page it counts for). */
  const sourceOf = async (page: string): Promise<FeedbackSource> => {
    await limitFeedbackWrites(ctx, project.id, reader.ip);
    let key: string | null = null;
    try {
      key = presentedKey(req);
    } catch {
      key = null;
    }
    return { userId: await feedbackAuthorOf(ctx, project, key), deployment: site.previewName === undefined ? 'production' : 'preview', page };
  };
  // Validated with the page it counts for in place of `pagePath`; the record keeps `pagePath` as sent.
  const asSent = <T extends { pagePath: string }>(body: T): T => {
    if (typeof sent.pagePath !== 'string') return body;
    if (sent.pagePath.length > MAX_PAGE_PATH) throw invalidField('pagePath', `at most ${MAX_PAGE_PATH} characters`);
    return { ...body, pagePath: sent.pagePath };
  };
  if (kind === 'page') {
    const parsed = CreatePageFeedbackBodySchema.safeParse(raw);
    if (!parsed.success) throw invalidInput(parsed.error, { input: raw });
    await requireReadable(site, reader, parsed.data.pagePath);
    const body = asSent(parsed.data);
    const claim = await claimSiteKey(ctx, req, res, reader.ip, body);
    if (claim === 'replayed') return;
    const answer = await settled(claim, 201, async () => ({ data: await createPageFeedback(ctx, project.id, body, await sourceOf(parsed.data.pagePath)) }));
    return sendSiteJson(req, res, 201, answer, true);
  }
  const parsed = CreateSectionFeedbackBodySchema.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error, { input: raw });
  await requireReadable(site, reader, parsed.data.pagePath);
  const body = asSent(parsed.data);
  const claim = await claimSiteKey(ctx, req, res, reader.ip, body);
  if (claim === 'replayed') return;
  const answer = await settled(claim, 201, async () => ({ data: await createSectionFeedback(ctx, project.id, body, await sourceOf(parsed.data.pagePath)) }));
  return sendSiteJson(req, res, 201, answer, true);
}

/**
 * Answers a request under `/_quire/feedback` of a loaded deployment (see the module comment).
 * Failures other than the reader's are logged and answered 500 in the error envelope.
 * @param rest the path after `/_quire/feedback` (`/page`, `/section`)
 */
export async function answerSiteFeedback(
  ctx: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  log: FastifyBaseLogger,
  rest: string,
): Promise<void> {
  const kind = rest === '/page' ? 'page' : rest === '/section' ? 'section' : undefined;
  if (kind === undefined) {
    req.resume();
    return sendSiteError(req, res, new ApiError('not_found', 'No such feedback endpoint: use /_quire/feedback/page or /_quire/feedback/section.'));
  }
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') return sendSiteMethodNotAllowed(req, res, ALLOWED);
  try {
    await answer(ctx, req, res, site, access, log, kind);
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return sendSiteError(req, res, err, Object.entries(err.headers ?? {}).flat());
    log.error({ err, url: req.url }, 'site feedback failed');
    sendSiteError(req, res, new ApiError('internal_error', 'Feedback could not be recorded; try again.'));
  }
}
