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
 */
import { ApiError } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import {
  FEEDBACK_COMMENTS_PER_PAGE,
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
import type { RequestAuth } from '../http/request-auth';
import type { PageRequest } from '../http/pagination';
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

/** A comment as stored: trimmed, null when blank or absent. */
function storedComment(comment: string | undefined): string | null {
  const trimmed = comment?.trim();
  return trimmed ? trimmed : null;
}

/**
 * Records a reader's answer to "Was this page helpful?" on `projectId`.
 * @param userId the account of the caller ({@link feedbackAuthorOf}); null: anonymous
 * @returns the record (decisions.md section 7: `id`, the fields sent, `createdAt`)
 */
export async function createPageFeedback(ctx: AppContext, projectId: string, body: CreatePageFeedbackBody, userId: string | null): Promise<PageFeedback> {
  const row = await ctx.db.prisma.pageFeedback.create({
    data: { id: newId('pageFeedback'), projectId, pagePath: body.pagePath, helpful: body.helpful, comment: storedComment(body.comment), visitorId: body.visitorId ?? null, userId },
  });
  return { id: row.id, pagePath: row.pagePath, helpful: row.helpful, comment: row.comment, visitorId: row.visitorId, createdAt: row.createdAt.toISOString() };
}

/**
 * Records a reader's vote on one section (heading anchor) of a page.
 * @param userId the account of the caller ({@link feedbackAuthorOf}); null: anonymous
 * @returns the record: `id`, the fields sent, `createdAt`
 */
export async function createSectionFeedback(ctx: AppContext, projectId: string, body: CreateSectionFeedbackBody, userId: string | null): Promise<SectionFeedback> {
  const row = await ctx.db.prisma.sectionFeedback.create({
    data: { id: newId('sectionFeedback'), projectId, pagePath: body.pagePath, sectionId: body.sectionId, vote: body.vote, comment: storedComment(body.comment), visitorId: body.visitorId ?? null, userId },
  });
  return { id: row.id, pagePath: row.pagePath, sectionId: row.sectionId, vote: row.vote === 'up' ? 'up' : 'down', comment: row.comment, visitorId: row.visitorId, createdAt: row.createdAt.toISOString() };
}

/** `{helpful, notHelpful, total}` of one page (interface-spec.md "Feedback"); zeros when it has none. */
export async function pageFeedbackStats(ctx: AppContext, projectId: string, pagePath: string): Promise<PageFeedbackStats> {
  const groups = await ctx.db.prisma.pageFeedback.groupBy({ by: ['helpful'], where: { projectId, pagePath }, _count: { _all: true } });
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

/** `[{sectionId, upvotes, downvotes}]` of one page's sections with votes (interface-spec.md "Feedback"), by section id. */
export async function sectionFeedbackStats(ctx: AppContext, projectId: string, pagePath: string): Promise<SectionFeedbackStats[]> {
  const groups = await ctx.db.prisma.sectionFeedback.groupBy({ by: ['sectionId', 'vote'], where: { projectId, pagePath }, _count: { _all: true } });
  const stats = new Map<string, SectionFeedbackStats>();
  for (const g of groups) addVotes(stats, g.sectionId, g.vote, g._count._all);
  return [...stats.values()].sort((a, b) => (a.sectionId < b.sectionId ? -1 : a.sectionId > b.sectionId ? 1 : 0));
}

/**
 * Page answers per page of a project, for analytics (per-page health): page path →
 * `{helpful, notHelpful}`. Pages without answers are absent. No access check (callers check the project).
 */
export async function feedbackCountsByPage(ctx: AppContext, projectId: string): Promise<Map<string, { helpful: number; notHelpful: number }>> {
  const groups = await ctx.db.prisma.pageFeedback.groupBy({ by: ['pagePath', 'helpful'], where: { projectId }, _count: { _all: true } });
  const counts = new Map<string, { helpful: number; notHelpful: number }>();
  for (const g of groups) {
    let entry = counts.get(g.pagePath);
    if (!entry) counts.set(g.pagePath, (entry = { helpful: 0, notHelpful: 0 }));
    if (g.helpful) entry.helpful += g._count._all;
    else entry.notHelpful += g._count._all;
  }
  return counts;
}

/** A page of the aggregate before its comments are read. */
type PageTally = Omit<FeedbackPageSummary, 'comments' | 'sections' | 'lastFeedbackAt'> & { sections: Map<string, SectionFeedbackStats>; last: Date };

/** The latest comments of one page (page answers and section votes together), newest first. */
async function latestComments(ctx: AppContext, projectId: string, pagePath: string): Promise<FeedbackComment[]> {
  const where = { projectId, pagePath, comment: { not: null } };
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
 * Feedback across every page of a project (`GET .../feedback/pages`): per page with any answer or
 * vote its answers, its sections with votes (most votes first) and its latest comments, ordered by
 * `filters.sort`, one page of the list.
 * @throws ApiError not_found for an unknown project or one the caller may not see.
 */
export async function feedbackPages(ctx: AppContext, auth: RequestAuth, projectId: string, filters: FeedbackPagesFilters, page: PageRequest): Promise<{ items: FeedbackPageSummary[]; total: number }> {
  await getProjectForCaller(ctx, auth, projectId);
  const [pageGroups, sectionGroups] = await Promise.all([
    ctx.db.prisma.pageFeedback.groupBy({ by: ['pagePath', 'helpful'], where: { projectId }, _count: { _all: true }, _max: { createdAt: true } }),
    ctx.db.prisma.sectionFeedback.groupBy({ by: ['pagePath', 'sectionId', 'vote'], where: { projectId }, _count: { _all: true }, _max: { createdAt: true } }),
  ]);
  const tallies = new Map<string, PageTally>();
  const tallyOf = (pagePath: string, at: Date | null): PageTally => {
    let tally = tallies.get(pagePath);
    if (!tally) tallies.set(pagePath, (tally = { pagePath, helpful: 0, notHelpful: 0, total: 0, sections: new Map(), last: new Date(0) }));
    if (at && at > tally.last) tally.last = at;
    return tally;
  };
  for (const g of pageGroups) {
    const tally = tallyOf(g.pagePath, g._max.createdAt);
    if (g.helpful) tally.helpful += g._count._all;
    else tally.notHelpful += g._count._all;
    tally.total += g._count._all;
  }
  for (const g of sectionGroups) addVotes(tallyOf(g.pagePath, g._max.createdAt).sections, g.sectionId, g.vote, g._count._all);
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
