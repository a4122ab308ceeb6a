/**
 * The pre-merge report of a review as the API returns it (`GET /v1/projects/{id}/reviews/{reviewId}/report`,
 * tRPC `reviews.report`): the shared report (shared/src/collab/merge-report.ts) of the review's current
 * revision, with the review's preview URL.
 */
import { z } from 'zod';
import { LintSeveritySchema } from '../lint/types';
import type { MergeReport } from '../collab/merge-report';

const FindingSchema = z.object({
  path: z.string().describe('Repository path of the changed file'),
  line: z.number().int().describe('1-based line (in the new text; in the old text for a fixed finding)'),
  ruleId: z.string().describe('The lint rule (`prose/repeated-words`, `style/<name>`, `links/broken`, …)'),
  severity: LintSeveritySchema,
  message: z.string(),
});

const RedirectSchema = z.object({ source: z.string(), destination: z.string(), permanent: z.boolean() });

/** The shared merge report (MergeReport) as a schema. */
export const MergeReportSchema = z.object({
  pages: z
    .array(
      z.object({
        path: z.string().describe('Repository path of the page file'),
        page: z.string().describe('Page path on the site'),
        change: z.enum(['added', 'modified', 'deleted']),
        title: z.string().describe('Front matter title, else one made from the path'),
      }),
    )
    .describe('Page files the change set adds, modifies or deletes'),
  lint: z.object({
    added: z.array(FindingSchema).describe('Findings in changed files that the base text did not have (same rule and message)'),
    fixed: z.array(FindingSchema).describe('Findings of the base text that the new text no longer has'),
  }),
  brokenLinks: z.array(FindingSchema).describe('Internal links of changed files that point to no page or file of the merged site, new with this change set'),
  missingImages: z.array(FindingSchema).describe('Images of changed files that are no file of the merged site, new with this change set'),
  navigation: z
    .array(
      z.object({
        page: z.string(),
        change: z.enum(['added', 'removed', 'moved']),
        from: z.array(z.string()).nullable().describe('Group titles before, outermost first; null: not in the navigation'),
        to: z.array(z.string()).nullable().describe('Group titles after; null: no longer in the navigation'),
      }),
    )
    .describe('Pages added to, removed from or moved between groups of the navigation as written in docs.json'),
  redirects: z.object({ added: z.array(RedirectSchema), removed: z.array(RedirectSchema) }),
  configErrors: z.object({ base: z.string().nullable(), head: z.string().nullable() }).describe('Why docs.json could not be loaded on a side; null when it loaded'),
});

/** A review's pre-merge report. */
export const ReviewReportSchema = MergeReportSchema.extend({
  reviewId: z.string(),
  revision: z.number().int().describe('The revision of the change set the report describes'),
  baseCommit: z.string(),
  previewUrl: z.string().describe("Where the review's preview is served (once its build deployed)"),
});
export type ReviewReport = z.infer<typeof ReviewReportSchema>;

// the schema and the shared type stay one shape
const _same: MergeReport = {} as z.infer<typeof MergeReportSchema>;
void _same;
