import { FilePath, procedure, ProjectId, Text, type CoreContext } from './trpc';
import { z } from 'zod';
import type { OpenedWorkspace } from './core';
import { isLocalProject } from './local-folder';
import { conflictPaths, openOrRefresh, pageConflict, refreshWorkspace, resolveConflict, type RefreshResult } from './workspace-refresh';

/** A folder path on this computer: absolute, no NUL. */
const FolderPath = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  .refine((p) => !p.includes('\0'), 'must not hold NUL characters');

/** What `workspace.open` answers: the opened workspace, whether it is a local folder, the refresh's answer when one ran, and the pages in conflict. */
export type OpenedProject = OpenedWorkspace & { local: boolean; refresh: RefreshResult | null; conflicts: string[] };

/**
 * `workspace.open`: a local folder reads its folder again (local-folder.ts); a server project
 * opened here before is refreshed three ways (workspace-refresh.ts), else fetched
 * (`Core.openWorkspace`). Errors as those functions throw them.
 */
export async function openProject({ core, localFolders }: Pick<CoreContext, 'core' | 'localFolders'>, projectId: string): Promise<OpenedProject> {
  if (isLocalProject(projectId)) return { ...localFolders.reopen(projectId), local: true, refresh: null, conflicts: [] };
  const ws = await openOrRefresh(core, projectId);
  return { ...ws, local: false, conflicts: conflictPaths(core, projectId) };
}

/**
 * Procedures spread into router.ts's `workspace` router:
 * - `workspace.refresh({projectId})` → `{commitSha, updated, merged, conflicts}` (workspace-refresh.ts)
 * - `workspace.conflict({projectId, path})` → `{path, commitSha, deletedOnServer, regions}`; NOT_FOUND when not in conflict
 * - `workspace.resolve({projectId, path, text})` → `{conflicts}` left; stores the chosen text, clears the conflict
 * - `workspace.openFolder({path})` → the opened local project (`local:<hash>` id, name, path); BAD_REQUEST for a path that is not a folder
 * - `workspace.localFolders()` → the local folders opened here, most recent first (no session needed;
 *   the project list shows them under "Local folders", apart from the server's `projects.list`)
 */
export const folderRouter = {
  refresh: procedure.input(z.object({ projectId: ProjectId })).mutation(({ ctx, input }) => refreshWorkspace(ctx.core, input.projectId)),
  conflict: procedure.input(z.object({ projectId: ProjectId, path: FilePath })).query(({ ctx, input }) => pageConflict(ctx.core, input.projectId, input.path)),
  conflicts: procedure.input(z.object({ projectId: ProjectId })).query(({ ctx, input }) => conflictPaths(ctx.core, input.projectId)),
  resolve: procedure
    .input(z.object({ projectId: ProjectId, path: FilePath, text: Text }))
    .mutation(({ ctx, input }) => resolveConflict(ctx.core, input.projectId, input.path, input.text)),
  openFolder: procedure.input(z.object({ path: FolderPath })).mutation(({ ctx, input }) => ctx.localFolders.open(input.path)),
  localFolders: procedure.query(({ ctx }) => ctx.localFolders.list()),
};
