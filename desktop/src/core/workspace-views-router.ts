import { z } from 'zod';
import { FilePath, procedure, ProjectId } from './trpc';
import { searchWorkspace } from './workspace-search';
import { changeDiff, changedFiles } from './change-list';

/**
 * Procedures of the workspace's side views, spread into router.ts's `workspace` router:
 * - `workspace.search({projectId, query, caseSensitive?, regex?})` → `{files: [{path, matches}], matchCount, capped, message}`
 *   (workspace-search.ts: RE2 patterns, at most 500 matches; BAD_REQUEST for an invalid pattern)
 * - `workspace.changedFiles({projectId})` → `[{path, change: 'added' | 'modified' | 'deleted'}]` (change-list.ts)
 * - `workspace.changeDiff({projectId, path})` → `{path, change, before, after}`: a changed file's base and local texts
 */
export const workspaceViewsRouter = {
  search: procedure
    .input(z.object({ projectId: ProjectId, query: z.string().min(1).max(1000), caseSensitive: z.boolean().optional(), regex: z.boolean().optional() }))
    .query(({ ctx, input }) => searchWorkspace(ctx.core.store, input.projectId, input)),
  changedFiles: procedure.input(z.object({ projectId: ProjectId })).query(({ ctx, input }) => changedFiles(ctx.core.store, input.projectId)),
  changeDiff: procedure
    .input(z.object({ projectId: ProjectId, path: FilePath }))
    .query(({ ctx, input }) => changeDiff(ctx.core.store, input.projectId, input.path)),
};
