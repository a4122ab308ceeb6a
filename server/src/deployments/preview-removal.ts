/**
 * Taking a preview down (interface-spec.md "Events"; decisions.md section 4): when its branch is
 * deleted or its pull request closed, the preview site `<previewName>--<slug>-docs.<sites domain>`
 * stops being served (its host answers 404) and its files are deleted. Production is never touched.
 */
import type { AppContext } from '../context';
import { previewChannelOf } from './preview-channel';

/** What {@link removePreview} did. */
export interface PreviewRemoval {
  /** queued builds of the preview, now `cancelled` */
  cancelled: string[];
  /** builds of the preview that were building: cancel requested (the runner ends them `cancelled`, never deployed) */
  stopping: string[];
  /** Deployment rows removed (0: the preview had never deployed, or was removed before) */
  deployments: number;
}

/**
 * Removes the preview `previewName` of project `projectId`: cancels its queued builds and asks the
 * runner to stop its running ones (`cancelRequested`: a build whose cancel was requested never
 * records a deployment, deployments/publish.ts), so nothing brings it back; deletes its Deployment
 * rows and announces `deployment.changed` (site hosts drop it: the preview host answers 404), then
 * deletes its stored files (`ctx.deploymentStore.remove`) and, with a store that has pointers (S3),
 * its channel pointer. A build belongs to the preview when {@link previewChannelOf} names it (its
 * `previewName`, or the slug of its branch for previews triggered through the API).
 * Idempotent: removing a preview that does not exist does nothing.
 * @throws Error for an empty `previewName` (that is production, never removed here), or an unknown project;
 *   store errors while deleting files are logged, not thrown (the preview is already gone).
 */
export async function removePreview(ctx: AppContext, projectId: string, previewName: string): Promise<PreviewRemoval> {
  if (previewName === '') throw new Error('removePreview: a preview name is required ("" is production, which is never removed)');
  const prisma = ctx.db.prisma;
  const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { slug: true } });
  const unfinished = await prisma.build.findMany({
    where: { projectId, isPreview: true, status: { in: ['queued', 'building'] } },
    select: { id: true, status: true, isPreview: true, previewName: true, reviewId: true, branch: true },
  });
  const mine = unfinished.filter((b) => previewChannelOf(b, project.slug) === previewName);
  const queued = mine.filter((b) => b.status === 'queued').map((b) => b.id);
  const building = mine.filter((b) => b.status === 'building').map((b) => b.id);
  const now = new Date();
  const { cancelled, rows } = await prisma.$transaction(async (tx) => {
    const ended = await tx.build.findMany({ where: { id: { in: queued }, status: 'queued' }, select: { id: true } });
    await tx.build.updateMany({ where: { id: { in: ended.map((b) => b.id) } }, data: { status: 'cancelled', cancelRequested: true, finishedAt: now } });
    await tx.build.updateMany({ where: { id: { in: building }, status: { in: ['queued', 'building'] } }, data: { cancelRequested: true } });
    const deployments = await tx.deployment.findMany({ where: { projectId, kind: 'preview', previewName }, select: { id: true, dir: true } });
    await tx.deployment.deleteMany({ where: { id: { in: deployments.map((d) => d.id) } } });
    return { cancelled: ended.map((b) => b.id), rows: deployments };
  });
  for (const id of cancelled) ctx.events.emit('build.status', { projectId, buildId: id, status: 'cancelled' });
  if (rows.length > 0) ctx.events.emit('deployment.changed', { projectId });
  const store = ctx.deploymentStore;
  for (const row of rows) {
    await store.remove(row.dir).catch((err: unknown) => ctx.log.warn({ err, projectId, dir: row.dir }, 'deleting the files of a removed preview failed'));
  }
  if (store.hasPointers) {
    await store
      .deactivate({ projectId, kind: 'preview', previewName })
      .catch((err: unknown) => ctx.log.warn({ err, projectId, previewName }, 'deleting the pointer of a removed preview failed'));
  }
  return { cancelled, stopping: building, deployments: rows.length };
}
