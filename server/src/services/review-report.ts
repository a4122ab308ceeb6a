/**
 * The pre-merge report of a review (decisions.md section 9; shared/src/collab/merge-report.ts): what
 * merging its change set would do to the site (pages changed, lint findings added and fixed, broken
 * links and missing images introduced, navigation and redirect changes), computed by the shared
 * engine the desktop app also runs, from the files of the review's base commit (read through the
 * repository reader, git/repo-reader.ts) and its change set as stored, with the project's style rules.
 * Computed when first asked for and kept per (review, revision, base commit, lint options) in
 * `ctx.reviewReports`; a new revision or new rules make a new report.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '@quire/shared/errors';
import { mergeReport, mergeReportReads, type MergeReport } from '@quire/shared/collab/merge-report';
import type { ReviewReport } from '@quire/shared/api/review-report';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { listFiles, readFileAt } from '../git/repo-reader';
import { loadReview, repoOf, reviewOverlay } from './reviews';
import { reviewPreviewUrl } from './review-dto';
import { lintOptionsOf } from './style-rules';

/** Reports kept per app; the oldest is dropped first. */
const MAX_REPORTS = 64;

/** Computed reports by key (review, revision, base commit, lint options), at most {@link MAX_REPORTS}. One per app (`ctx.reviewReports`). */
export class ReviewReports {
  private readonly byKey = new Map<string, MergeReport>();

  /** The report stored under `key`, if any. */
  get(key: string): MergeReport | undefined {
    return this.byKey.get(key);
  }

  /** Stores a report, dropping the oldest one when full. */
  set(key: string, report: MergeReport): void {
    if (this.byKey.size >= MAX_REPORTS) this.byKey.delete(this.byKey.keys().next().value!);
    this.byKey.set(key, report);
  }
}

/**
 * The pre-merge report of a review's current revision, with its preview URL.
 * @throws ApiError not_found (project or review); invalid_request (field `repoUrl`) for a project
 *   without a repository; the repository reader's errors (unreachable repository).
 */
export async function getReviewReport(ctx: AppContext, auth: RequestAuth, projectId: string, reviewId: string): Promise<ReviewReport> {
  const { project, review } = await loadReview(ctx, auth, projectId, reviewId);
  const [changes, lint] = await Promise.all([reviewOverlay(ctx.db, reviewId), lintOptionsOf(ctx.db, projectId)]);
  const key = createHash('sha256').update(JSON.stringify([reviewId, review.revision, review.baseCommit, changes, lint])).digest('hex');
  let report = ctx.reviewReports.get(key);
  if (!report) {
    const repo = repoOf(project);
    const basePaths = (await listFiles(ctx, repo, review.baseCommit)).map((f) => f.path);
    const texts = new Map<string, string>();
    for (const path of mergeReportReads(basePaths, changes)) {
      const text = await readIfSmall(ctx, repo, review.baseCommit, path);
      if (text !== null) texts.set(path, text);
    }
    report = await mergeReport({ basePaths, readBase: (p) => texts.get(p), changes, lint });
    ctx.reviewReports.set(key, report);
  }
  return { ...report, reviewId, revision: review.revision, baseCommit: review.baseCommit, previewUrl: reviewPreviewUrl(ctx.config, project.slug, reviewId) };
}

/** A base file's text; null when missing or over the reader's size limit (the report then treats it as unreadable). */
async function readIfSmall(ctx: AppContext, repo: ReturnType<typeof repoOf>, commit: string, path: string): Promise<string | null> {
  try {
    return await readFileAt(ctx, repo, commit, path);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'payload_too_large') return null;
    throw err;
  }
}
