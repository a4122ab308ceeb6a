/**
 * The merge rule of resolved threads (a project setting, `settings.requireResolvedThreads`,
 * shared/src/api/projects.ts): the server refuses such a merge (409 conflict,
 * server/src/services/reviews.ts) and the desktop's merge button says why (desktop/src/core/reviews.ts
 * `mergeBlock`), with the same words.
 */

/**
 * Why a review cannot be merged yet under the resolved-threads rule, or null when it can.
 * @param required the project's `requireResolvedThreads` switch
 * @param unresolved the review's threads (comments without a parent) not resolved
 */
export function unresolvedThreadsReason(required: boolean, unresolved: number): string | null {
  if (!required || unresolved <= 0) return null;
  return `${unresolved} ${unresolved === 1 ? 'thread is' : 'threads are'} unresolved; this project requires every thread resolved before merge.`;
}
