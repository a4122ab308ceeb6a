/**
 * Runs of the docs agent (decisions.md section 11, "Docs agent"): `POST /v1/projects/{id}/agent/runs
 * {repoUrl, baseRef, headRef}` answers 202 `{data: run}`; `GET .../agent/runs/{runId}` follows it.
 * A run compares two commits of a source repository listed in `settings.sourceRepos`
 * (source-repos.ts) and opens a review of the docs; it never merges.
 */
import { z } from 'zod';
import { checkBranchName, checkCommitSha, COMMIT_SHA_PATTERN } from '../repo/git-ref';
import { REPO_URL_MAX_LENGTH } from '../repo/repo-url';
import { TimestampSchema } from './common';

/** Where a run is. */
export const AGENT_RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type AgentRunStatus = (typeof AGENT_RUN_STATUSES)[number];

/** What started a run. */
export const AGENT_RUN_TRIGGERS = ['api', 'push', 'pull_request'] as const;
export type AgentRunTrigger = (typeof AGENT_RUN_TRIGGERS)[number];

/** The label a review opened by the agent carries (the desktop's Reviews list shows it). */
export const AGENT_REVIEW_LABEL = 'agent';

/** A branch name (the rule of `../repo/git-ref`) or a full commit id (40 or 64 hex digits). */
export const GitRefSchema = z
  .string()
  .min(1)
  .max(250)
  .superRefine((ref, ctx) => {
    if (COMMIT_SHA_PATTERN.test(ref) && checkCommitSha(ref).ok) return;
    const check = checkBranchName(ref);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: `is neither a full lowercase commit id nor a branch name: it ${check.issue}` });
  })
  .describe('A branch name or a full commit id');

/** Body of `POST /v1/projects/{projectId}/agent/runs`. */
export const CreateAgentRunBodySchema = z.strictObject({
  repoUrl: z.string().min(1).max(REPO_URL_MAX_LENGTH).describe("A repository of the project's settings.sourceRepos (any URL form of it)"),
  baseRef: GitRefSchema.describe('The commit (or branch) the changes are counted from'),
  headRef: GitRefSchema.describe('The commit (or branch) whose changes the docs should follow'),
});
export type CreateAgentRunBody = z.infer<typeof CreateAgentRunBodySchema>;

/** A line of a page the run flagged. */
export const AgentFindingSchema = z.object({
  path: z.string().describe('Repository path of the page in the docs repository'),
  line: z.number().int().describe('1-based line at the base commit of the review'),
  reason: z.string().describe('The API change the line mentions'),
});
export type AgentFinding = z.infer<typeof AgentFindingSchema>;

/** A run as returned. */
export const AgentRunSchema = z.object({
  id: z.string().describe('run_<id>'),
  status: z.enum(AGENT_RUN_STATUSES),
  trigger: z.enum(AGENT_RUN_TRIGGERS),
  repoUrl: z.string(),
  baseRef: z.string(),
  headRef: z.string(),
  baseCommit: z.string().nullable().describe('The commit baseRef named, once resolved'),
  headCommit: z.string().nullable().describe('The commit headRef named, once resolved'),
  reviewId: z.string().nullable().describe('The review the run opened (or the review of the run it duplicates); null while running or when nothing needed review'),
  duplicateOf: z.string().nullable().describe('A run that already handled the same head commit of this repository: this one opened nothing'),
  summary: z.string().describe('What the run found, in a few lines'),
  findings: z.array(AgentFindingSchema).describe('Lines of hand-written pages that mention a changed operation, parameter or field'),
  error: z.string().nullable().describe('Why a failed run failed'),
  createdAt: TimestampSchema,
  startedAt: TimestampSchema.nullable(),
  finishedAt: TimestampSchema.nullable(),
});
export type AgentRun = z.infer<typeof AgentRunSchema>;

/** Path parameters of `GET .../agent/runs/{runId}`. */
export const AgentRunParamsSchema = z.object({ projectId: z.string().min(1).max(64), runId: z.string().min(1).max(64) });
