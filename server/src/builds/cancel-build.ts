/**
 * Cancelling a build on a caller's request (interface-spec.md "Builds": cancel build), the one path
 * of the REST route (`DELETE /v1/projects/{projectId}/builds/{buildId}`) and the tRPC `builds.cancel`.
 */
import { ApiError } from '@quire/shared/errors';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { getBuild } from '../services/builds';

/**
 * Cancels build `buildId` of project `projectId` through the app's build runner
 * (`ctx.buildRunner.cancel`): a queued build, or one waiting for approval, ends `cancelled` at once; a
 * building one is stopped before this resolves (up to 15 s). The previous deployment keeps serving.
 * @throws ApiError not_found when the project is not the caller's or the build is not in it (or is
 *   gone); conflict when the build already ended (deployed, failed or cancelled).
 */
export async function cancelBuild(ctx: AppContext, auth: RequestAuth, projectId: string, buildId: string): Promise<void> {
  const row = await getBuild(ctx, auth, projectId, buildId);
  const outcome = await ctx.buildRunner.cancel(row.id);
  if (outcome === 'missing') throw new ApiError('not_found', `No build ${row.id} in project ${row.projectId}.`);
  if (outcome === 'finished') throw new ApiError('conflict', `Build ${row.id} already ended; only queued or building builds can be cancelled.`);
}
