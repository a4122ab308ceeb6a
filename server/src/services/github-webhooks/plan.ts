/**
 * What a git event means for one connected project (interface-spec.md "Events", handling table;
 * decisions.md section 4):
 *
 * | event | condition | result |
 * |---|---|---|
 * | push | branch is the project's `repoBranch` | production build of `after` |
 * | push | any other branch | preview build of `after`, channel `branchSlug(branch, slug)` |
 * | push | a tag (`refs/tags/...`) or another ref | ignored |
 * | push | branch deleted (`deleted`, or `after` all zeros) | that branch's preview removed; production never |
 * | pull_request | `opened`, `synchronize`, `reopened` | preview build of `pull_request.head.sha` from `head.ref`, channel `pr-<number>` |
 * | pull_request | `closed` | the `pr-<number>` preview removed |
 * | pull_request | any other action | ignored |
 * | ping | - | answered, nothing built |
 * | anything else | - | ignored |
 *
 * Pure: no I/O.
 */
import type { GithubPushEvent } from '@quire/shared/api/git-webhooks';
import { checkBranchName, checkCommitSha } from '@quire/shared/repo/git-ref';
import { branchSlug } from '../../deployments/site-host';
import type { GitEvent } from './payload';

/** Commits GitHub lists at most in a push payload; a push listing this many may have more. */
export const PUSH_COMMITS_LISTED_MAX = 2048;

/** A project as planning reads it. */
export interface PlannedProject {
  slug: string;
  repoBranch: string;
}

/** What to do for one project. */
export type ProjectPlan =
  | {
      kind: 'build';
      branch: string;
      commitSha: string;
      /** preview channel; null for production */
      previewName: string | null;
      pullRequest: { number: number; title: string | null } | null;
      changedFiles: string[] | null;
      /** the commit `changedFiles` are counted from (the push's `before`); null when there is no list */
      changedSince: string | null;
      /** e.g. `push to main: production build` */
      detail: string;
    }
  | { kind: 'remove_preview'; previewName: string; detail: string }
  | { kind: 'nothing'; outcome: 'ignored' | 'ping'; detail: string };

/** The preview channel of pull request `number`: `pr-<number>`. */
export function pullRequestPreviewName(number: number): string {
  return `pr-${number}`;
}

/** Pull request actions that build a preview of the head commit (interface-spec.md "Events"). */
const PR_BUILD_ACTIONS = new Set(['opened', 'synchronize', 'reopened']);
const ZERO_SHA = /^0+$/;
const BRANCH_PREFIX = 'refs/heads/';
const TAG_PREFIX = 'refs/tags/';

/** Decides what `event` does for `project`. */
export function planFor(project: PlannedProject, event: GitEvent): ProjectPlan {
  switch (event.kind) {
    case 'push':
      return planPush(project, event.payload);
    case 'pull_request': {
      const { action, number, pull_request: pr } = event.payload;
      const previewName = pullRequestPreviewName(number);
      if (action === 'closed') return { kind: 'remove_preview', previewName, detail: `pull request #${number} closed: preview ${previewName} removed` };
      if (!PR_BUILD_ACTIONS.has(action)) return nothing(`pull request #${number} ${action}: only opened, synchronize, reopened and closed act`);
      const branchCheck = checkBranchName(pr.head.ref);
      if (!branchCheck.ok) return nothing(`pull request #${number} ${action}: its head branch ${JSON.stringify(pr.head.ref)} is not accepted (${branchCheck.issue})`);
      const sha = pr.head.sha.toLowerCase();
      if (!checkCommitSha(sha).ok) return nothing(`pull request #${number} ${action}: head.sha is not a full commit id`);
      return {
        kind: 'build',
        branch: pr.head.ref,
        commitSha: sha,
        previewName,
        pullRequest: { number, title: pr.title ?? null },
        changedFiles: null,
        changedSince: null,
        detail: `pull request #${number} ${action}: preview build of ${pr.head.ref} @ ${sha.slice(0, 7)} (${previewName})`,
      };
    }
    case 'ping':
      return { kind: 'nothing', outcome: 'ping', detail: `ping (hook ${event.payload.hook_id}): the webhook reaches Quire` };
    case 'installation':
    case 'installation_repositories':
      return nothing(`${event.kind} ${event.payload.action}: nothing to build`);
    case 'other':
      return nothing(`${event.name}${event.action ? ` ${event.action}` : ''}: Quire acts on push and pull_request only`);
  }
}

function planPush(project: PlannedProject, push: GithubPushEvent): ProjectPlan {
  if (push.ref.startsWith(TAG_PREFIX)) return nothing(`push of tag ${push.ref.slice(TAG_PREFIX.length)}: tags are not built`);
  if (!push.ref.startsWith(BRANCH_PREFIX)) return nothing(`push to ${push.ref}: not a branch`);
  const branch = push.ref.slice(BRANCH_PREFIX.length);
  const branchCheck = checkBranchName(branch);
  if (!branchCheck.ok) return nothing(`push to branch ${JSON.stringify(branch)}: the name is not accepted (${branchCheck.issue})`);
  const production = branch === project.repoBranch;
  if (push.deleted === true || ZERO_SHA.test(push.after)) {
    if (production) return nothing(`branch ${branch} deleted: it is the production branch, the production site stays`);
    const previewName = branchSlug(branch, project.slug);
    return { kind: 'remove_preview', previewName, detail: `branch ${branch} deleted: preview ${previewName} removed` };
  }
  const sha = push.after.toLowerCase();
  if (!checkCommitSha(sha).ok) return nothing(`push to ${branch}: "after" is not a full commit id`);
  const previewName = production ? null : branchSlug(branch, project.slug);
  return {
    kind: 'build',
    branch,
    commitSha: sha,
    previewName,
    pullRequest: null,
    ...changedListOf(push),
    detail: `push to ${branch} @ ${sha.slice(0, 7)}: ${production ? 'production build' : `preview build (${previewName})`}`,
  };
}

/**
 * The paths a push changed: `added`, `modified` and `removed` of every listed commit, deduplicated
 * and sorted. Null when the payload cannot tell: no commits listed (a branch created from an
 * existing commit), a force push (the listed commits do not describe the change from `before`),
 * {@link PUSH_COMMITS_LISTED_MAX} commits or more (the list may be cut), or a commit without its lists.
 */
export function changedFilesOf(push: GithubPushEvent): string[] | null {
  const commits = push.commits ?? [];
  if (commits.length === 0 || push.forced === true || commits.length >= PUSH_COMMITS_LISTED_MAX) return null;
  const paths = new Set<string>();
  for (const c of commits) {
    if (!c.added && !c.modified && !c.removed) return null;
    for (const p of [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])]) paths.add(p);
  }
  return [...paths].sort();
}

/** The push's changed paths with the commit they are counted from (`before`), or nulls when unknown. */
function changedListOf(push: GithubPushEvent): { changedFiles: string[] | null; changedSince: string | null } {
  const changedFiles = changedFilesOf(push);
  const before = push.before.toLowerCase();
  return changedFiles && checkCommitSha(before).ok ? { changedFiles, changedSince: before } : { changedFiles, changedSince: null };
}

function nothing(detail: string): ProjectPlan {
  return { kind: 'nothing', outcome: 'ignored', detail };
}
