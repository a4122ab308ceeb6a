/**
 * Previews of a change set that is not a review's: the desktop app's "Build preview of your
 * changes" (decisions.md section 9: a change set is a list of file changes on a base commit of the
 * project's branch). Like a review's preview (services/reviews.ts, builds.ts `queueReviewBuild`),
 * the build checks out the base commit and lays the change set over it (jobs/build-runner.ts,
 * builder/pipeline.ts "applying change set"); the change set is kept beside the build
 * (`BuildOverlayFile` rows) instead of in a review.
 *
 * - Who: `projects:write` (what opening a review with the same change set needs) and, through tRPC,
 *   `builds:write`: editors, admins and owners.
 * - The change set passes the same rule and limits as a review's (`@quire/shared/collab/change-set`,
 *   reviews.ts `checkedChanges` and `classify`); an empty one is refused (build the branch instead).
 * - Where: each person has one preview channel per project, `changes-<user id body>`, cut like a
 *   branch slug (deployments/site-host.ts) so `<name>--<slug>-docs` fits one DNS label; a newer preview of the
 *   same person replaces an older one still queued (that one ends `cancelled`), and only the newest
 *   builds of a channel keep their change set.
 * - Limits: the project's hourly trigger limit ({@link TRIGGERS_PER_HOUR}, it is a button) and the
 *   monthly build limit; never 409 while another build runs (the runner starts it once that one ended).
 */
import { ApiError, invalidField } from '@quire/shared/errors';
import { hasPermission } from '@quire/shared/api/api-keys';
import type { ChangeSetEntry, FileChange } from '@quire/shared/collab/change-set';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import { lockKey } from '../db/locks';
import type { RequestAuth } from '../access/request-auth';
import { resolveRef } from '../git/repo-reader';
import { branchSlug } from '../deployments/site-host';
import { enqueueBuild, queueBuild } from '../builds/queue-build';
import { recordAudit } from './audit';
import { checkHourlyTriggers } from './builds';
import { nextStamp } from '../db/stamps';
import { getProjectForCaller } from './projects';
import { asField, asFileChanges, checkedChanges, classify, FILE_CHANGE_SELECT, repoOf, reviewOverlay } from './reviews';
import { consumeUsage } from './usage';

type BuildRow = Models.BuildModel;


/** What {@link queueChangeSetPreview} builds: `changes` (the shape of a review's change set) on `baseCommit`. */
export interface ChangeSetPreviewBody {
  /** a full commit SHA of the project's repository, or a branch name */
  baseCommit: string;
  changes: readonly ChangeSetEntry[];
}

/**
 * The preview channel of a person's change set previews in a project: `changes-<user id body>`
 * (`changes-<key id body>` for an API key without a person), cut to fit the preview host name.
 */
export function changeSetPreviewName(auth: Pick<RequestAuth, 'userId' | 'keyId'>, projectSlug: string): string {
  const who = (auth.userId ?? auth.keyId ?? 'anyone').replace(/^[a-z]+_/, '');
  return branchSlug(`changes-${who}`, projectSlug);
}

/**
 * Queues a preview build of `body.changes` laid over `body.baseCommit` (see the module comment),
 * audited as `build.triggered` (`metadata.changeSet.files`).
 * @returns the queued build (`isPreview` true, trigger `api`, `commitSha` the resolved base commit,
 *   `previewName` the person's channel)
 * @throws ApiError not_found (project unknown or not the caller's); forbidden (no `projects:write`);
 *   invalid_request naming the field (no repository, an unknown base commit, a bad or duplicate path,
 *   a deletion of a file the base does not have, an empty change set); payload_too_large past the
 *   change set limits; rate_limited (with `Retry-After`) past the hourly trigger limit;
 *   usage_limit_exceeded past the monthly build limit; service_unavailable when the repository cannot be read.
 */
export async function queueChangeSetPreview(ctx: AppContext, auth: RequestAuth, projectId: string, body: ChangeSetPreviewBody): Promise<BuildRow> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  if (!hasPermission(auth.permissions, 'projects:write')) {
    throw new ApiError('forbidden', 'Previewing a change set needs the "projects:write" permission.', { permission: 'projects:write' });
  }
  const repo = repoOf(project);
  const pending = checkedChanges(body.changes);
  if (pending.length === 0) throw invalidField('changes', 'is empty; to preview the branch as it is, trigger a preview build of it');
  const baseCommit = await resolveRef(ctx, repo, body.baseCommit).catch((err: unknown) => {
    throw asField(err, 'baseCommit');
  });
  const changes = await classify(ctx, repo, baseCommit, pending);
  const previewName = changeSetPreviewName(auth, project.slug);

  let replaced: string[] = [];
  const build = await ctx.db.prisma.$transaction(async (tx) => {
    await lockKey(tx, ctx.db.provider, `build:${projectId}`);
    await checkHourlyTriggers(tx, projectId);
    const older = await tx.build.findMany({ where: { projectId, isPreview: true, previewName }, select: { id: true, status: true } });
    replaced = older.filter((b) => b.status === 'queued').map((b) => b.id);
    if (replaced.length > 0) {
      await tx.build.updateMany({ where: { id: { in: replaced }, status: 'queued' }, data: { status: 'cancelled', cancelRequested: true, finishedAt: new Date() } });
    }
    // A running build still reads its change set (and a requeued one again): only ended builds drop theirs.
    const ended = older.filter((b) => b.status !== 'building').map((b) => b.id);
    if (ended.length > 0) await tx.buildOverlayFile.deleteMany({ where: { buildId: { in: ended } } });
    const org = await tx.organization.findUniqueOrThrow({ where: { id: project.orgId }, select: { id: true, plan: true } });
    await consumeUsage(tx, ctx.config, org, 'builds');
    const row = await queueBuild(tx, {
      projectId,
      trigger: 'api',
      branch: project.repoBranch,
      commitSha: baseCommit,
      isPreview: true,
      previewName,
      createdById: auth.userId,
      createdAt: nextStamp(),
    });
    await tx.buildOverlayFile.createMany({ data: changes.map((c) => ({ buildId: row.id, path: c.path, content: c.content, encoding: c.encoding })) });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'build.triggered',
      resource: { type: 'build', id: row.id },
      metadata: { branch: project.repoBranch, isPreview: true, commitSha: baseCommit, changeSet: { files: changes.length } },
    });
    return row;
  });
  // Progress streams and outgoing webhooks hear that the replaced previews ended.
  for (const id of replaced) ctx.events.emit('build.status', { projectId, buildId: id, status: 'cancelled' });
  await enqueueBuild(ctx, build);
  return build;
}

/**
 * The change set a preview build lays over its checkout, as the build runner passes it to the
 * builder: a review's change set (`reviewId`), or the files a change set preview keeps; `{}` for a
 * preview of a branch as it is (no overlay: the builder may then skip an unchanged commit).
 * No access check: for the build runner, which acts for the project itself.
 */
export async function previewOverlay(db: AppContext['db'], build: Pick<BuildRow, 'id' | 'reviewId'>): Promise<{ overlay?: FileChange[] }> {
  if (build.reviewId) return { overlay: await reviewOverlay(db, build.reviewId) };
  const files = await db.prisma.buildOverlayFile.findMany({ where: { buildId: build.id }, select: FILE_CHANGE_SELECT, orderBy: { path: 'asc' } });
  return files.length > 0 ? { overlay: asFileChanges(files) } : {};
}
