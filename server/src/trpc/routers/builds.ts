import { z } from 'zod';
import { BuildStatusSchema, CommitShaSchema, TriggerBuildBodySchema, type Build, type BuildDetail } from '@quire/shared/api/builds';
import { ChangeEntrySchema } from '@quire/shared/api/reviews';
import { resolvePage } from '../../http/pagination';
import { buildLogText } from '../../builds/build-log';
import { buildProgress, type BuildProgress } from '../../services/build-progress';
import { getBuild, listBuilds, toBuildDetailDto, toBuildDto, triggerBuild } from '../../services/builds';
import { queueChangeSetPreview } from '../../services/change-set-previews';
import { cancelBuild } from '../../builds/cancel-build';
import { permittedProcedure, router } from '../trpc';

const BuildInput = z.object({ projectId: z.string().max(64), buildId: z.string().max(64) });
const reader = permittedProcedure('builds:read');
const writer = permittedProcedure('builds:write');

/**
 * `builds`: a project's builds for the desktop app (the twins of the REST builds routes, same
 * services and rules: decisions.md section 4). Every role reads; triggering needs an editor, admin
 * or owner (FORBIDDEN otherwise).
 * - `list({projectId, status?, branch?, page?, pageSize?})` → `{items, total}`, newest first.
 * - `get({projectId, buildId})` → the build with `error`, `changedFiles`, `logUrl`.
 * - `trigger({projectId, branch?, preview?, commitSha?, force?})` → the queued build (CONFLICT while
 *   one is queued or building, with the REST route's message).
 * - `previewChanges({projectId, baseCommit, changes})` (editors and up) → the queued preview build of
 *   the change set `changes` (a review's change set shape) laid over `baseCommit`, on the caller's
 *   own preview channel (services/change-set-previews.ts); BAD_REQUEST naming the field,
 *   PAYLOAD_TOO_LARGE past the change set limits, TOO_MANY_REQUESTS past the hourly trigger limit.
 * - `cancel({projectId, buildId})` → nothing, once the build is cancelled (a building one is stopped
 *   first, up to 15 s); CONFLICT when it already ended, with the REST route's message.
 * - `log({projectId, buildId})` → the log so far, as text.
 * - `progress({projectId, buildId})` (subscription; server-sent events over HTTP) → a first update
 *   with the whole log, then status, step and new log lines as they happen, ending with `done: true`.
 */
export const buildsRouter = router({
  list: reader
    .input(
      z.object({
        projectId: z.string().max(64),
        status: BuildStatusSchema.optional(),
        branch: z.string().min(1).max(250).optional(),
        page: z.number().int().min(1).default(1),
        pageSize: z.number().int().min(1).max(100).default(20),
      }),
    )
    .query(async ({ ctx, input }): Promise<{ items: Build[]; total: number }> => {
      const { items, total } = await listBuilds(
        ctx.app,
        ctx.auth,
        input.projectId,
        { status: input.status, branch: input.branch },
        resolvePage({ page: input.page, pageSize: input.pageSize }),
      );
      return { items: items.map(toBuildDto), total };
    }),
  get: reader
    .input(BuildInput)
    .query(async ({ ctx, input }): Promise<BuildDetail> => toBuildDetailDto(await getBuild(ctx.app, ctx.auth, input.projectId, input.buildId), ctx.app.config)),
  trigger: writer
    .input(z.object({ projectId: z.string().max(64) }).extend(TriggerBuildBodySchema.shape))
    .mutation(async ({ ctx, input }): Promise<Build> => {
      const { projectId, ...body } = input;
      return toBuildDto(await triggerBuild(ctx.app, ctx.auth, projectId, body));
    }),
  previewChanges: writer
    .input(z.object({ projectId: z.string().max(64), baseCommit: CommitShaSchema, changes: z.array(ChangeEntrySchema) }))
    .mutation(async ({ ctx, input }): Promise<Build> => toBuildDto(await queueChangeSetPreview(ctx.app, ctx.auth, input.projectId, input))),
  cancel: writer.input(BuildInput).mutation(({ ctx, input }): Promise<void> => cancelBuild(ctx.app, ctx.auth, input.projectId, input.buildId)),
  log: reader.input(BuildInput).query(async ({ ctx, input }): Promise<string> => {
    const row = await getBuild(ctx.app, ctx.auth, input.projectId, input.buildId);
    return buildLogText(ctx.app, row.projectId, row.id);
  }),
  progress: reader.input(BuildInput).subscription(async function* ({ ctx, input, signal }): AsyncGenerator<BuildProgress> {
    yield* buildProgress(ctx.app, ctx.auth, input.projectId, input.buildId, signal);
  }),
});
