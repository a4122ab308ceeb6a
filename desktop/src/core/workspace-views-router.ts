import { z } from 'zod';
import { FilePath, procedure, ProjectId } from './trpc';
import { searchWorkspace } from './workspace-search';
import { changeDiff, changedFiles, type ChangeDiff } from './change-list';
import { previewUrlOf } from './preview-files';

/**
 * Procedures of the workspace's side views, spread into router.ts's `workspace` router:
 * - `workspace.search({projectId, query, caseSensitive?, regex?})` → `{files: [{path, matches}], matchCount, capped, message}`
 *   (workspace-search.ts: RE2 patterns, at most 500 matches; BAD_REQUEST for an invalid pattern)
 * - `workspace.changedFiles({projectId})` → `[{path, change: 'added' | 'modified' | 'deleted'}]` (change-list.ts)
 * - `workspace.changeDiff({projectId, path})` → `{path, change, before, after}`: a changed file's base and local texts;
 *   for a binary file written here also `binarySize` and `previewUrl` (where the preview serves it, for a thumbnail; null when it does not)
 */
export const workspaceViewsRouter = {
  search: procedure
    .input(z.object({ projectId: ProjectId, query: z.string().min(1).max(1000), caseSensitive: z.boolean().optional(), regex: z.boolean().optional() }))
    .query(({ ctx, input }) => searchWorkspace(ctx.core.store, input.projectId, input)),
  changedFiles: procedure.input(z.object({ projectId: ProjectId })).query(({ ctx, input }) => changedFiles(ctx.core.store, input.projectId)),
  changeDiff: procedure
    .input(z.object({ projectId: ProjectId, path: FilePath }))
    .query(({ ctx, input }): ChangeDiff => {
      const diff = changeDiff(ctx.core.store, input.projectId, input.path);
      return diff.binarySize === undefined ? diff : { ...diff, previewUrl: previewUrlOf(ctx.core, input.projectId, input.path) };
    }),
};
