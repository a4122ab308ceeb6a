/**
 * The REST form of reviews (interface-spec.md "Collaboration", reviews): what a review row is read
 * with, where its preview is served (decisions.md section 4) and its DTO. Apart from the review
 * service so that webhook events (webhook-events.ts) and sync pulls can describe a review without
 * importing the service that records those events.
 */
import { isPagePath } from '@quire/shared/collab/change-set';
import type { FileChangeKind, Review, ReviewPerson } from '@quire/shared/api/reviews';
import type { ReviewStatus } from '@quire/shared/collab/review-status';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import type { Config } from '../env';
import { reviewPreviewName } from '../deployments/preview-channel';
import { previewSiteUrl } from '../deployments/site-host';
import { projectSiteUrl, type ProjectRecord } from './projects';
import { AGENT_REVIEW_LABEL } from '@quire/shared/api/agent-runs';
import { mentionedByReview } from './review-mentions';

/** A stored review. */
export type ReviewRow = Models.ReviewModel;

/** A review with what its REST form needs: changed paths (no contents), reviewer ids, comment count, whether the docs agent opened it. */
export const REVIEW_INCLUDE = {
  files: { select: { path: true, change: true, encoding: true }, orderBy: { path: 'asc' as const } },
  reviewers: { select: { userId: true } },
  _count: { select: { comments: true } },
  agentRuns: { select: { id: true }, take: 1 },
};
export type ReviewWithParts = ReviewRow & {
  files: Array<{ path: string; change: string; encoding: string }>;
  reviewers: Array<{ userId: string }>;
  _count: { comments: number };
  /** the docs agent's runs that opened (or found) the review: any makes it an agent review */
  agentRuns: Array<{ id: string }>;
};

/** Where a review's preview is served: `http://review-<id>--<slug>-docs.<sites domain>:<port>/`. */
export function reviewPreviewUrl(config: Pick<Config, 'sitesDomain' | 'port'>, projectSlug: string, reviewId: string): string {
  return previewSiteUrl(projectSiteUrl(config, projectSlug), reviewPreviewName(reviewId, projectSlug));
}

/** A page's URL in a preview: the path without `.md`/`.mdx`, an `index` page as its folder. */
function pagePreviewUrl(previewUrl: string, path: string): string {
  const page = path.replace(/\.mdx?$/i, '').replace(/(^|\/)index$/i, '$1');
  return new URL(page.split('/').map(encodeURIComponent).join('/'), previewUrl).toString();
}

/** The people behind `ids`, by id. */
export async function peopleById(ctx: AppContext, ids: Iterable<string | null>): Promise<Map<string, ReviewPerson>> {
  const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const users = await ctx.db.prisma.user.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true, email: true } });
  return new Map(users.map((u) => [u.id, u]));
}

/** The number of unresolved threads (comments without a parent, not resolved) of each review, by review id. */
export async function unresolvedCounts(db: AppContext['db']['prisma'], reviewIds: string[]): Promise<Map<string, number>> {
  if (reviewIds.length === 0) return new Map();
  const groups = await db.reviewComment.groupBy({ by: ['reviewId'], where: { reviewId: { in: reviewIds }, parentId: null, resolvedAt: null }, _count: { _all: true } });
  return new Map(groups.map((g) => [g.reviewId, g._count._all]));
}

/** REST forms of reviews of one project (rows read with {@link REVIEW_INCLUDE}). */
export async function toReviewDtos(ctx: AppContext, project: ProjectRecord, rows: ReviewWithParts[]): Promise<Review[]> {
  const mentioned = await mentionedByReview(ctx.db.prisma, rows.map((r) => r.id));
  const people = await peopleById(ctx, [...rows.flatMap((r) => [r.authorId, ...r.reviewers.map((x) => x.userId)]), ...[...mentioned.values()].flat()]);
  const unresolved = await unresolvedCounts(ctx.db.prisma, rows.map((r) => r.id));
  return rows.map((r) => {
    const previewUrl = reviewPreviewUrl(ctx.config, project.slug, r.id);
    return {
      id: r.id,
      title: r.title,
      description: r.description,
      status: r.status as ReviewStatus,
      author: (r.authorId && people.get(r.authorId)) || null,
      reviewers: r.reviewers.map((x) => people.get(x.userId)).filter((p): p is ReviewPerson => p !== undefined),
      mentioned: (mentioned.get(r.id) ?? []).map((id) => people.get(id)).filter((p): p is ReviewPerson => p !== undefined),
      baseCommit: r.baseCommit,
      branch: r.branch,
      ...(r.headBranch ? { headBranch: r.headBranch } : {}),
      revision: r.revision,
      changes: r.files.map((f) => ({
        path: f.path,
        change: f.change as FileChangeKind,
        ...(f.encoding === 'base64' ? { binary: true as const } : {}),
        ...(f.change !== 'deleted' && isPagePath(f.path) ? { previewUrl: pagePreviewUrl(previewUrl, f.path) } : {}),
      })),
      previewUrl,
      previewBuildId: r.previewBuildId,
      labels: r.agentRuns.length > 0 ? [AGENT_REVIEW_LABEL] : [],
      commentCount: r._count.comments,
      unresolvedCount: unresolved.get(r.id) ?? 0,
      resolvedThreadsRequired: project.settings.requireResolvedThreads,
      ...(r.mergeCommit ? { mergeCommit: r.mergeCommit } : {}),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}
