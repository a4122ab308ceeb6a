/**
 * Creation times for rows listed by `createdAt` (builds, audit entries, review comments, git
 * deliveries, chat messages): every stamp this process hands out is strictly later than the one
 * before, so two rows written in the same millisecond still sort in the order they were written.
 */

/** The last stamp handed out by this process (ms since the epoch); one clock for every table. */
let lastStamp = 0;

/**
 * The current time, or one millisecond after the previous stamp when the clock has not moved past
 * it (same millisecond, or the wall clock stepped back). Guarantees strictly increasing stamps
 * within one process, so ordering by `createdAt` ("newest first", "oldest first") is exact and
 * stable; stamps of different processes are only as ordered as their clocks.
 */
export function nextStamp(): Date {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp);
}
