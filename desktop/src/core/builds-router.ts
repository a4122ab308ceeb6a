import { procedure, ProjectId, t } from './trpc';
import { z } from 'zod';

const BuildId = z.string().min(1).max(64);

/**
 * The core's `builds` procedures (publishing, builds.ts), registered in router.ts:
 * - `builds.trigger({projectId, preview?})` → the queued server Build (production unless `preview`);
 *   FORBIDDEN for a viewer, CONFLICT while another build of the project runs (the server's answers)
 * - `builds.previewChanges({projectId})` → the queued preview build of the local edits (every file
 *   edited in the opened workspace, on its base commit); BAD_REQUEST when nothing is edited
 * - `builds.list({projectId})` → the project's newest builds, newest first
 * - `builds.watch({projectId, buildId, since?})` → BuildWatchState: status, step, done, url, error,
 *   phases (status changes with times) and the log lines from index `since` on (poll it; the core
 *   follows the server's progress stream)
 */
export const buildsRouter = t.router({
  trigger: procedure
    .input(z.object({ projectId: ProjectId, preview: z.boolean().default(false) }))
    .mutation(({ ctx, input }) => ctx.builds.trigger(input.projectId, input.preview)),
  previewChanges: procedure.input(z.object({ projectId: ProjectId })).mutation(({ ctx, input }) => ctx.builds.previewChanges(input.projectId)),
  list: procedure.input(z.object({ projectId: ProjectId })).query(({ ctx, input }) => ctx.builds.list(input.projectId)),
  watch: procedure
    .input(z.object({ projectId: ProjectId, buildId: BuildId, since: z.number().int().min(0).max(10_000_000).default(0) }))
    .query(({ ctx, input }) => ctx.builds.watch(input.projectId, input.buildId, input.since)),
});
