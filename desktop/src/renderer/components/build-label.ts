import type { Build } from '@quire/shared/api/builds';

/** What a build's name is made of (a build as listed by the core, `Build` of shared/src/api/builds.ts). */
export type BuildNaming = Pick<Build, 'id' | 'branch' | 'commitSha' | 'commitMessage'>;

/** Characters of a commit message's first line shown at most before an ellipsis. */
const MAX_MESSAGE = 72;

/**
 * A build id shortened for people: the last 6 characters of its random part
 * (`bld_4fT0aZ9qLm2xYcW8` → `2xYcW8`), enough to tell a project's recent builds apart.
 */
export function shortBuildId(id: string): string {
  return id.slice(id.indexOf('_') + 1).slice(-6);
}

/** A commit's short form as git shows it: its first 7 hex digits. */
export function shortCommit(sha: string): string {
  return sha.slice(0, 7);
}

/** Where a build comes from: `main @ 1a2b3c4`, or the branch alone before its commit is known. */
export function buildSource(b: Pick<Build, 'branch' | 'commitSha'>): string {
  return b.commitSha ? `${b.branch} @ ${shortCommit(b.commitSha)}` : b.branch;
}

/**
 * How a build is named in the Builds panel and view, never by its raw id: the first line of its
 * commit message (cut at 72 characters with an ellipsis), else where it comes from
 * ({@link buildSource}); a build not known yet (`undefined`) as `Build <short id>` of `buildId`.
 */
export function buildTitle(b: BuildNaming | undefined, buildId = ''): string {
  if (!b) return `Build ${shortBuildId(buildId)}`;
  const message = b.commitMessage?.split('\n', 1)[0]?.trim();
  if (!message) return buildSource(b);
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
}

/** A build's status in words (`deployed` → "Deployed"). */
export const STATUS_WORDS: Record<string, string> = { queued: 'Queued', building: 'Building', deployed: 'Deployed', failed: 'Failed', cancelled: 'Cancelled' };

/** A span of time in ms for people: "0.4 s", "1 min 5 s". */
export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
