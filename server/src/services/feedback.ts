/**
 * Visitor feedback (interface-spec.md "Feedback" and "Feedback (public, no API key needed)";
 * decisions.md section 7): "Was this page helpful?" answers and up/down votes on sections, their
 * stats, and the aggregate across a project's pages. One implementation for the API routes
 * (routes/v1/feedback) and the site's `/_quire/feedback/*` (sites/site-feedback.ts).
 *
 * - Writes are public. When the caller presents an API key or a desktop session of the project's
 *   organization (the key scoped to the project or org-wide), the record carries that account's
 *   user id; otherwise it is anonymous (interface-spec.md: "When a Bearer token is present the
 *   feedback is associated with that account, otherwise it is anonymous"). A key that does not
 *   resolve, or belongs to another organization, makes anonymous feedback, never an error.
 * - Writes are limited per client IP and project ({@link FEEDBACK_WRITE_LIMIT} per minute, on top of
 *   the public 1,000 requests per minute; decisions.md section 7), counted in `ctx.rateLimits`
 *   (shared by every process with REDIS_URL): 429 `rate_limited` with `Retry-After` past it.
 * - Unknown projects answer 404 `not_found`.
 * - The record keeps `pagePath` as sent (decisions.md section 7: the record holds the fields sent);
 *   it counts for the page `pageKey`, the path without leading and trailing slashes (shared
 *   `normalizePagePath`; the site's root: its home page), so `/quickstart` and `quickstart` are one
 *   page in every statistic and in `GET .../feedback/pages`, listed as `quickstart`.
 * - Feedback given on a preview deployment is stored marked `deployment: "preview"` and never counted:
 *   the stats, `GET .../feedback/pages` and page health (analytics/health.ts) count production
 *   feedback only ({@link FeedbackSource}).
 */
import { ApiError } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import {
  FEEDBACK_COMMENTS_PER_PAGE,
  normalizePagePath,
  type CreatePageFeedbackBody,
  type CreateSectionFeedbackBody,
  type FeedbackComment,
  type FeedbackPagesFilters,
  type FeedbackPageSummary,
  type PageFeedback,
  type PageFeedbackStats,
  type SectionFeedback,
  type SectionFeedbackStats,
} from '@quire/shared/api/feedback';
import type { AppContext } from '../context';
import { rawDate } from '../db/raw-dates';
import type { RequestAuth } from '../access/request-auth';
import type { PageRequest } from '@quire/shared/api/common';
import { getProjectForCaller, type ProjectRecord } from './projects';
import { rateLimitedError, type RateLimitState } from './rate-limiter';
import { resolveSession, SESSION_TOKEN_PREFIX } from './sessions';

/** Feedback writes (page and section together) allowed per client IP and project per minute. */
export const FEEDBACK_WRITE_LIMIT = 30;

/** The project `projectId` (any organization: the routes are public). @throws ApiError not_found. */
export async function feedbackProject(ctx: AppContext, projectId: string): Promise<ProjectRecord> {
  const project = await ctx.projects.get(projectId);
  if (!project) throw new ApiError('not_found', `No project ${projectId}.`);
  return project;
}

/**
 * Counts one feedback write of `ip` on `projectId` (see the module comment).
 * @throws ApiError rate_limited (429, `Retry-After` and `X-RateLimit-*` headers) past {@link FEEDBACK_WRITE_LIMIT}.
 */
export async function limitFeedbackWrites(ctx: AppContext, projectId: string, ip: string): Promise<void> {
  const state: RateLimitState = await ctx.rateLimits.hit(`feedback:${projectId}:${ip}`, FEEDBACK_WRITE_LIMIT);
  if (state.exceeded) throw rateLimitedError(state, 'feedback submissions');
}

/**
 * The user a presented API key or session token (`Authorization: Bearer <token>`) stands for on
 * `project`: the key's creator or the session's user when the key or session belongs to the
 * project's organization (a project-scoped key: to this project); null otherwise (anonymous).
 * Never throws for a bad token; a database failure while reading a session rejects.
 * @param presented the token as sent, or null when none was sent
 */
export async function feedbackAuthorOf(ctx: AppContext, project: Pick<ProjectRecord, 'id' | 'orgId'>, presented: string | null): Promise<string | null> {
  if (!presented || presented.length > 512) return null;
  if (presented.startsWith(SESSION_TOKEN_PREFIX)) {
    const session = await resolveSession(ctx.db, presented);
    return session && session.org.id === project.orgId ? session.user.id : null;
  }
  const resolved = await ctx.apiKeys.resolve(presented);
  if (typeof resolved === 'string' || resolved.orgId !== project.orgId) return null;
  if (resolved.projectId !== null && resolved.projectId !== project.id) return null;
  ctx.apiKeys.touch(resolved.keyId);
  return resolved.userId;
}

/**
 * The kind of site feedback was given on: `production` (the production site, a custom domain, a
 * documentation version, or an API call from none of the project's preview hosts) or `preview` (a
 * preview deployment). Only production feedback counts in statistics.
 */
export type FeedbackDeployment = 'production' | 'preview';

/** The feedback that statistics count. */
const COUNTED: FeedbackDeployment = 'production';

/** Who sent feedback, and from where. */
export interface FeedbackSource {
  /** the account of the caller ({@link feedbackAuthorOf}); null: anonymous */
  userId: string | null;
  /** the kind of site it was given on */
  deployment: FeedbackDeployment;
  /** the page it counts for, when not `normalizePagePath(body.pagePath)` (the site's root: its home page) */
  page?: string;
}

/** A comment as stored: trimmed, null when blank or absent. */
function storedComment(comment: string | undefined): string | null {
  const trimmed = comment?.trim();
  return trimmed ? trimmed : null;
}

/**
 * Records a reader's answer to "Was this page helpful?" on `projectId`.
 * @returns the record (decisions.md section 7: `id`, the fields sent, `pagePath` as sent, `createdAt`)
 */
export async function createPageFeedback(ctx: AppContext, projectId: string, body: CreatePageFeedbackBody, source: FeedbackSource): Promise<PageFeedback> {
  const row = await ctx.db.prisma.pageFeedback.create({
    data: {
      id: newId('pageFeedback'),
      projectId,
      pagePath: body.pagePath,
      pageKey: source.page ?? normalizePagePath(body.pagePath),
      deployment: source.deployment,
      helpful: body.helpful,
      comment: storedComment(body.comment),
      visitorId: body.visitorId ?? null,
      userId: source.userId,
    },
  });
  return { id: row.id, pagePath: row.pagePath, helpful: row.helpful, comment: row.comment, visitorId: row.visitorId, createdAt: row.createdAt.toISOString() };
}

/**
 * Records a reader's vote on one section (heading anchor) of a page.
 * @returns the record: `id`, the fields sent (`pagePath` as sent), `createdAt`
 */
export async function createSectionFeedback(
  ctx: AppContext,
  projectId: string,
  body: CreateSectionFeedbackBody,
  source: FeedbackSource,
): Promise<SectionFeedback> {
  const row = await ctx.db.prisma.sectionFeedback.create({
    data: {
      id: newId('sectionFeedback'),
      projectId,
      pagePath: body.pagePath,
      pageKey: source.page ?? normalizePagePath(body.pagePath),
      deployment: source.deployment,
      sectionId: body.sectionId,
      vote: body.vote,
      comment: storedComment(body.comment),
      visitorId: body.visitorId ?? null,
      userId: source.userId,
    },
  });
  return { id: row.id, pagePath: row.pagePath, sectionId: row.sectionId, vote: row.vote === 'up' ? 'up' : 'down', comment: row.comment, visitorId: row.visitorId, createdAt: row.createdAt.toISOString() };
}

/**
 * `{helpful, notHelpful, total}` of one page (interface-spec.md "Feedback"), production feedback only; zeros when it has none.
 * @param page the page, normalised (shared `normalizePagePath`)
 */
export async function pageFeedbackStats(ctx: AppContext, projectId: string, page: string): Promise<PageFeedbackStats> {
  const groups = await ctx.db.prisma.pageFeedback.groupBy({ by: ['helpful'], where: { projectId, deployment: COUNTED, pageKey: page }, _count: { _all: true } });
  let helpful = 0;
  let notHelpful = 0;
  for (const g of groups) {
    if (g.helpful) helpful += g._count._all;
    else notHelpful += g._count._all;
  }
  return { helpful, notHelpful, total: helpful + notHelpful };
}

/** Adds grouped vote counts into per-section stats. */
function addVotes(into: Map<string, SectionFeedbackStats>, sectionId: string, vote: string, count: number): void {
  let stats = into.get(sectionId);
  if (!stats) into.set(sectionId, (stats = { sectionId, upvotes: 0, downvotes: 0 }));
  if (vote === 'up') stats.upvotes += count;
  else stats.downvotes += count;
}

/**
 * `[{sectionId, upvotes, downvotes}]` of one page's sections with votes (interface-spec.md "Feedback"), by section id; production feedback only.
 * @param page the page, normalised (shared `normalizePagePath`)
 */
export async function sectionFeedbackStats(ctx: AppContext, projectId: string, page: string): Promise<SectionFeedbackStats[]> {
  const groups = await ctx.db.prisma.sectionFeedback.groupBy({ by: ['sectionId', 'vote'], where: { projectId, deployment: COUNTED, pageKey: page }, _count: { _all: true } });
  const stats = new Map<string, SectionFeedbackStats>();
  for (const g of groups) addVotes(stats, g.sectionId, g.vote, g._count._all);
  return [...stats.values()].sort((a, b) => (a.sectionId < b.sectionId ? -1 : a.sectionId > b.sectionId ? 1 : 0));
}

/**
 * Page answers per page of a project, for analytics (per-page health): page (normalised) →
 * `{helpful, notHelpful}`, production feedback only. Pages without answers are absent. No access check (callers check the project).
 */
export async function feedbackCountsByPage(ctx: AppContext, projectId: string): Promise<Map<string, { helpful: number; notHelpful: number }>> {
  const groups = await ctx.db.prisma.pageFeedback.groupBy({ by: ['pageKey', 'helpful'], where: { projectId, deployment: COUNTED }, _count: { _all: true } });
  const counts = new Map<string, { helpful: number; notHelpful: number }>();
  for (const g of groups) {
    let entry = counts.get(g.pageKey);
    if (!entry) counts.set(g.pageKey, (entry = { helpful: 0, notHelpful: 0 }));
    if (g.helpful) entry.helpful += g._count._all;
    else entry.notHelpful += g._count._all;
  }
  return counts;
}

/** A page of the aggregate before its comments are read. */
type PageTally = Omit<FeedbackPageSummary, 'comments' | 'sections' | 'lastFeedbackAt'> & { sections: Map<string, SectionFeedbackStats>; last: Date };

/** The latest comments of one page (page answers and section votes together, production only), newest first. */
async function latestComments(ctx: AppContext, projectId: string, page: string): Promise<FeedbackComment[]> {
  const where = { projectId, deployment: COUNTED, pageKey: page, comment: { not: null } };
  const orderBy = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
  const [pages, sections] = await Promise.all([
    ctx.db.prisma.pageFeedback.findMany({ where, orderBy, take: FEEDBACK_COMMENTS_PER_PAGE }),
    ctx.db.prisma.sectionFeedback.findMany({ where, orderBy, take: FEEDBACK_COMMENTS_PER_PAGE }),
  ]);
  const all: Array<FeedbackComment & { at: number }> = [
    ...pages.map((r) => ({ id: r.id, sectionId: null, helpful: r.helpful, comment: r.comment ?? '', userId: r.userId, createdAt: r.createdAt.toISOString(), at: r.createdAt.getTime() })),
    ...sections.map((r) => ({ id: r.id, sectionId: r.sectionId, helpful: r.vote === 'up', comment: r.comment ?? '', userId: r.userId, createdAt: r.createdAt.toISOString(), at: r.createdAt.getTime() })),
  ];
  return all
    .sort((a, b) => b.at - a.at)
    .slice(0, FEEDBACK_COMMENTS_PER_PAGE)
    .map(({ at: _at, ...comment }) => comment);
}

/** Orders the aggregate's pages by `sort` (ties: page path). */
function comparePages(sort: FeedbackPagesFilters['sort']): (a: PageTally, b: PageTally) => number {
  const byPath = (a: PageTally, b: PageTally) => (a.pagePath < b.pagePath ? -1 : a.pagePath > b.pagePath ? 1 : 0);
  if (sort === 'total') return (a, b) => b.total - a.total || byPath(a, b);
  if (sort === 'notHelpful') return (a, b) => b.notHelpful - a.notHelpful || byPath(a, b);
  return (a, b) => b.last.getTime() - a.last.getTime() || byPath(a, b);
}

/**
 * When each page last got production feedback (page answer or section vote): page → newest `createdAt`.
 * Raw SQL: Prisma's `_max` of a DateTime is unreadable on SQLite (db/raw-dates.ts).
 */
async function newestFeedbackByPage(ctx: AppContext, projectId: string): Promise<Map<string, Date>> {
  const rows = await ctx.db.prisma.$queryRaw<{ pageKey: string; last: unknown }[]>`
    SELECT f."pageKey", MAX(f."createdAt") AS "last" FROM (
      SELECT "pageKey", "createdAt" FROM "PageFeedback" WHERE "projectId" = ${projectId} AND "deployment" = ${COUNTED}
      UNION ALL
      SELECT "pageKey", "createdAt" FROM "SectionFeedback" WHERE "projectId" = ${projectId} AND "deployment" = ${COUNTED}
    ) AS f GROUP BY f."pageKey"`;
  return new Map(rows.map((r) => [r.pageKey, rawDate(r.last)]));
}

/**
 * Feedback across every page of a project (`GET .../feedback/pages`), production feedback only:
 * per page with any answer or vote (pages are grouped normalised, so `/quickstart` and `quickstart`
 * are one page, listed as `quickstart`) its answers, its sections with votes (most votes first), its
 * latest comments and `lastFeedbackAt` (when its newest answer or vote arrived), ordered by
 * `filters.sort`, one page of the list.
 * @throws ApiError not_found for an unknown project or one the caller may not see.
 */
export async function feedbackPages(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  filters: FeedbackPagesFilters,
  page: PageRequest,
): Promise<{ items: FeedbackPageSummary[]; total: number }> {
  await getProjectForCaller(ctx, auth, projectId);
  const where = { projectId, deployment: COUNTED };
  const [pageGroups, sectionGroups, newest] = await Promise.all([
    ctx.db.prisma.pageFeedback.groupBy({ by: ['pageKey', 'helpful'], where, _count: { _all: true } }),
    ctx.db.prisma.sectionFeedback.groupBy({ by: ['pageKey', 'sectionId', 'vote'], where, _count: { _all: true } }),
    newestFeedbackByPage(ctx, projectId),
  ]);
  const tallies = new Map<string, PageTally>();
  const now = new Date(); // the newest time of a page whose first feedback arrived between the reads
  const tallyOf = (pageKey: string): PageTally => {
    let tally = tallies.get(pageKey);
    if (!tally) {
      tallies.set(pageKey, (tally = { pagePath: pageKey, helpful: 0, notHelpful: 0, total: 0, sections: new Map(), last: newest.get(pageKey) ?? now }));
    }
    return tally;
  };
  for (const g of pageGroups) {
    const tally = tallyOf(g.pageKey);
    if (g.helpful) tally.helpful += g._count._all;
    else tally.notHelpful += g._count._all;
    tally.total += g._count._all;
  }
  for (const g of sectionGroups) addVotes(tallyOf(g.pageKey).sections, g.sectionId, g.vote, g._count._all);
  const ordered = [...tallies.values()].sort(comparePages(filters.sort));
  const slice = ordered.slice(page.skip, page.skip + page.take);
  const items = await Promise.all(
    slice.map(async (t): Promise<FeedbackPageSummary> => ({
      pagePath: t.pagePath,
      helpful: t.helpful,
      notHelpful: t.notHelpful,
      total: t.total,
      sections: [...t.sections.values()].sort((a, b) => b.upvotes + b.downvotes - (a.upvotes + a.downvotes) || (a.sectionId < b.sectionId ? -1 : 1)),
      comments: await latestComments(ctx, projectId, t.pagePath),
      lastFeedbackAt: t.last.toISOString(),
    })),
  );
  return { items, total: ordered.length };
}
