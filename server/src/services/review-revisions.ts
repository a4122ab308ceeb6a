/**
 * The kept revisions of a review's change set (`ReviewRevision`, written by reviews.ts on opening a
 * review and on each new change set), for comparing any two: each revision lists its files as they
 * were then (`content` null: deleted). A file a revision does not list reads as at that revision's
 * base commit. Reviews opened before revisions were kept list only the revisions kept since.
 */
import type { ReviewRevision } from '@quire/shared/api/reviews';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { loadReview } from './reviews';

/** Every kept revision of a review, oldest first. @throws ApiError not_found for an unknown or foreign review. */
export async function listReviewRevisions(ctx: AppContext, auth: RequestAuth, projectId: string, reviewId: string): Promise<ReviewRevision[]> {
  await loadReview(ctx, auth, projectId, reviewId);
  return reviewRevisionsOf(ctx.db.prisma, reviewId);
}

/** The kept revisions of a review (no access check: for callers that checked it, such as sync pulls), oldest first. */
export async function reviewRevisionsOf(db: Pick<AppContext['db']['prisma'], 'reviewRevision'>, reviewId: string): Promise<ReviewRevision[]> {
  const rows = await db.reviewRevision.findMany({ where: { reviewId }, orderBy: { revision: 'asc' } });
  return rows.map((r) => ({
    revision: r.revision,
    baseCommit: r.baseCommit,
    files: JSON.parse(r.files) as ReviewRevision['files'],
    createdAt: r.createdAt.toISOString(),
  }));
}
