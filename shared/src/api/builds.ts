/**
 * Builds (interface-spec.md "Build", "Builds", build state table; decisions.md section 4):
 * the build as returned, the trigger body, the list filters and the path parameters.
 */
import { z } from 'zod';
import { TimestampSchema } from './common';
import { COMMIT_SHA_PATTERN } from '../repo/git-ref';
import { BranchSchema } from './projects';

/** Build statuses: the spec's four plus `cancelled` (decisions.md section 4). */
export const BUILD_STATUSES = ['queued', 'building', 'deployed', 'failed', 'cancelled'] as const;
export const BuildStatusSchema = z.enum(BUILD_STATUSES);
export type BuildStatus = z.infer<typeof BuildStatusSchema>;

/** Statuses of a build that has not ended: a project with one gets 409 on a new trigger. */
export const IN_PROGRESS_STATUSES = ['queued', 'building'] as const satisfies readonly BuildStatus[];

/** Steps a running build can wait at (decisions.md section 9: a gated production deploy pauses before its deploy step). */
export const BUILD_STEPS = ['waiting_for_approval'] as const;
export type BuildStep = (typeof BUILD_STEPS)[number];

/** What started a build; `review` is a review's preview, or the production build of its merge (decisions.md section 9). */
export const BuildTriggerSchema = z.enum(['push', 'manual', 'api', 'github_app', 'review', 'schedule']);
export type BuildTrigger = z.infer<typeof BuildTriggerSchema>;

/** A build as listed and as returned by the trigger. Members not known yet are null. */
export const BuildSchema = z.object({
  id: z.string().describe('bld_<id>'),
  projectId: z.string(),
  status: BuildStatusSchema,
  trigger: BuildTriggerSchema,
  branch: z.string(),
  commitSha: z.string().nullable().describe('Known once the repository was fetched (or as requested)'),
  commitMessage: z.string().nullable(),
  isPreview: z.boolean().describe('Preview builds deploy to http://<branch-slug>--<slug>-docs.<sites domain>/ and never change the production site'),
  url: z.string().nullable().describe('Deployed URL (set when deployed)'),
  duration: z.number().int().nullable().describe('Milliseconds from start of building to its end'),
  step: z
    .enum(BUILD_STEPS)
    .nullable()
    .describe('Where a building build waits: `waiting_for_approval` (rendered, paused before its deploy step until its approval is decided: see /approvals); null otherwise'),
  createdAt: TimestampSchema,
  deployedAt: TimestampSchema.nullable(),
});
export type Build = z.infer<typeof BuildSchema>;

/** `GET .../builds/{buildId}`: the build plus `error`, `changedFiles` and `logUrl` (decisions.md section 4). */
export const BuildDetailSchema = BuildSchema.extend({
  error: z.string().nullable().describe('Why the build failed (file, line and reason when known)'),
  changedFiles: z.array(z.string()).nullable().describe('Changed paths reported by a push webhook'),
  logUrl: z.string().describe('Plain-text log: one line per step with its duration, and every warning'),
});
export type BuildDetail = z.infer<typeof BuildDetailSchema>;

/** Full 40 (SHA-1) or 64 (SHA-256) hex digit commit id, lower case. */
export const CommitShaSchema = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(z.string().regex(COMMIT_SHA_PATTERN, 'must be a full 40 hex digit commit id'));

/** Body of `POST .../builds`, all optional (decisions.md section 4). */
export const TriggerBuildBodySchema = z
  .object({
    branch: BranchSchema.optional().describe("Default: the project's repoBranch"),
    preview: z.boolean().optional().describe('Deploy as a preview. Builds of another branch than repoBranch, and builds triggered with a test key, are always previews'),
    commitSha: CommitShaSchema.optional().describe('Default: the head of the branch'),
    force: z.boolean().optional().describe('Rebuild even when nothing changed'),
  })
  .strict();
export type TriggerBuildBody = z.infer<typeof TriggerBuildBodySchema>;

/** Filters of `GET .../builds` (pagination members come from the server's page query). */
export const ListBuildsFiltersSchema = z.object({
  status: BuildStatusSchema.optional(),
  branch: z.string().min(1).max(250).optional(),
});
export type ListBuildsFilters = z.infer<typeof ListBuildsFiltersSchema>;

/** Path parameters of one build. */
export const BuildParamsSchema = z.object({ projectId: z.string().min(1).max(100), buildId: z.string().min(1).max(100) });
