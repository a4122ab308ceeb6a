/**
 * Claiming a queued build for a run (decisions.md section 4: one build per project at a time, across
 * processes). The build runner (jobs/build-runner.ts) retries a job whose claim found the project busy.
 */
import type { AppContext } from '../context';
import { NOT_WAITING, type BuildRow } from './build-status';

/** Thrown inside the claim transaction to roll it back when the project already has a build running. */
class ProjectBusy extends Error {}

/**
 * Moves `build` from `queued` to `building` unless another build of its project is `building`,
 * atomically across processes: a serializable transaction that rolls back when another build of
 * the project is `building` (SQLite serializes writers; PostgreSQL's serializable isolation fails
 * one of two concurrent claims). A build waiting for approval does not count.
 * @returns `claimed`; `busy` when the project has a build running (or a concurrent claim won);
 *   `gone` when the build is no longer queued.
 */
export async function claimBuild(ctx: AppContext, build: Pick<BuildRow, 'id' | 'projectId'>, startedAt: Date): Promise<'claimed' | 'busy' | 'gone'> {
  try {
    return await ctx.db.prisma.$transaction(
      async (tx) => {
        const { count } = await tx.build.updateMany({ where: { id: build.id, status: 'queued', cancelRequested: false }, data: { status: 'building', startedAt } });
        if (count !== 1) return 'gone' as const;
        // A build waiting for approval holds no worker: previews (and reviews' builds) of the project may run meanwhile.
        const others = await tx.build.count({ where: { projectId: build.projectId, status: 'building', id: { not: build.id }, ...NOT_WAITING } });
        if (others > 0) throw new ProjectBusy();
        return 'claimed' as const;
      },
      { isolationLevel: 'Serializable' },
    );
  } catch (err) {
    // ProjectBusy, or PostgreSQL's serialization failure (P2034) / SQLite's busy database.
    if (err instanceof ProjectBusy || (err as { code?: string }).code === 'P2034' || /SQLITE_BUSY|database is locked/i.test(String((err as Error).message))) return 'busy';
    throw err;
  }
}
