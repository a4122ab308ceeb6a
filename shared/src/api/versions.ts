/**
 * REST shapes of documentation versions (interface-spec.md "Version comparison", "Versioning >
 * Documentation versions" rule 8): `GET /v1/projects/{projectId}/versions/diff?from=&to=`. The
 * spec leaves the response open; Quire answers the pages added, removed and changed (by content
 * hash) from `from` to `to`, with their titles, and how many are unchanged.
 */
import { z } from 'zod';
import { VersionLabelSchema } from './search';

/** Query of the version diff: two version labels, both required. */
export const VersionDiffQuerySchema = z.object({
  from: VersionLabelSchema.describe('The version compared from (versioning.versions[].label)'),
  to: VersionLabelSchema.describe('The version compared to (versioning.versions[].label)'),
});
export type VersionDiffQuery = z.infer<typeof VersionDiffQuerySchema>;

/** A page of a version's inventory, as the diff lists it. */
export const VersionDiffPageSchema = z.object({
  path: z.string().describe('Page path (`guides/setup`), as served under the version'),
  title: z.string().describe("The page's title (in `to` for added and changed pages, in `from` for removed ones)"),
});
export type VersionDiffPage = z.infer<typeof VersionDiffPageSchema>;

/** What the version diff answers (each list sorted by path). */
export const VersionDiffSchema = z.object({
  from: z.string().describe('The `from` label'),
  to: z.string().describe('The `to` label'),
  added: z.array(VersionDiffPageSchema).describe('Pages `to` has and `from` has not'),
  removed: z.array(VersionDiffPageSchema).describe('Pages `from` has and `to` has not'),
  changed: z.array(VersionDiffPageSchema).describe("Pages both have whose Markdown differs (SHA-256 of the page's `.md`)"),
  unchangedCount: z.number().int().describe('Pages both have with the same Markdown'),
});
export type VersionDiff = z.infer<typeof VersionDiffSchema>;
