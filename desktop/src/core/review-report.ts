/**
 * The pre-merge report of a review, computed offline by the desktop core with the engine the server
 * uses (shared/src/collab/merge-report.ts), so that both give the same report for the same change set:
 * the base is the opened workspace's base files (its paths, and its texts where the review does not
 * carry the file's text at the review's base), the change set the review's files as this computer
 * knows them (the last pull with the outbox laid over it, reviews.ts), the rules the project's lint
 * options as last fetched. A workspace opened on another commit than the review's base reads the
 * unchanged files as of that commit.
 */
import { mergeReport, type MergeReport } from '@quire/shared/collab/merge-report';
import type { LinterOptions } from '@quire/shared/lint/linter';
import type { ReviewDetail } from './reviews';
import type { LocalStore } from './store';

/** What `reviews.report` answers: the shared report plus the review's revision, base and preview URL (null until the server made one). */
export type LocalReviewReport = MergeReport & { reviewId: string; revision: number; baseCommit: string; previewUrl: string | null };

/** What {@link localReviewReport} reads. */
export interface ReviewReportDeps {
  store: LocalStore;
  /** the review as `reviews.get` answers it */
  review: ReviewDetail;
  /** the project's lint options as last fetched (core.ts `lintOptions`) */
  lintOptions: LinterOptions;
}

/**
 * The pre-merge report of `deps.review` on this computer's files of `projectId`.
 * @throws PatternError when a cached style rule's pattern is not valid RE2 (the server refuses those when stored)
 */
export async function localReviewReport(projectId: string, deps: ReviewReportDeps): Promise<LocalReviewReport> {
  const { review, store } = deps;
  const base = new Map<string, string | null>(store.workspace(projectId) ? store.baseFiles(projectId).map((f) => [f.path, f.base]) : []);
  for (const f of review.files) {
    if (f.change === 'added') base.delete(f.path);
    else base.set(f.path, f.before);
  }
  const changes = review.files.map((f) => ({ path: f.path, content: f.change === 'deleted' ? null : (f.after ?? '') }));
  const { styleRules, glossary, settings } = deps.lintOptions;
  const report = await mergeReport({
    basePaths: [...base.keys()].sort(),
    readBase: (p) => base.get(p) ?? undefined,
    changes,
    lint: { ...(styleRules ? { styleRules } : {}), ...(glossary ? { glossary } : {}), ...(settings ? { settings } : {}) },
  });
  return { ...report, reviewId: review.id, revision: review.revision, baseCommit: review.baseCommit, previewUrl: review.previewUrl || null };
}
