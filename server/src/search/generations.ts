/**
 * Reindex generations (interface-spec.md "States and transitions > Reindex job": search stays
 * available during reindexing). A build writes its deployment's index under `_quire/search/`; a
 * reindex job writes a new index of each deployment it covers under
 * `_quire/search/reindex/<jobId>/` (new files, never changing the build's), in the deployment's own
 * storage (a local directory or the bucket prefix), so every process can read it.
 *
 * The swap is the job row turning `completed`: a search reads the newest completed job of the
 * project (remembered {@link GENERATION_TTL_MS}, forgotten at once on `search.reindexed`, from any
 * process through the event transport) and, for a deployment that existed when that job started,
 * loads the job's generation of its index; until then, or when the generation has no files for the
 * deployment, the build's index answers.
 */
import { LRUCache } from 'lru-cache';
import { SEARCH_INDEX_DIR } from '@quire/shared/search/records-file';
import type { AppContext } from '../context';
import type { DeploymentFiles } from '../storage/deployment-store';

/** Folder of a deployment's search index, as the builder writes it, with its trailing slash. */
export const SEARCH_DIR = `${SEARCH_INDEX_DIR}/`;
/** Folder of the reindex generations inside {@link SEARCH_DIR}. */
export const REINDEX_DIR = `${SEARCH_DIR}reindex/`;

/** How long a project's newest completed reindex is believed without an event, in ms. */
export const GENERATION_TTL_MS = 5_000;

/** The newest completed reindex of a project. */
export interface Generation {
  jobId: string;
  /** when the job started processing: deployments created before it are covered */
  startedAt: Date;
}

/** The folder holding the generation `jobId` of a deployment's index (`_quire/search/reindex/<jobId>/`). */
export function generationDir(jobId: string): string {
  return `${REINDEX_DIR}${jobId}/`;
}

/**
 * A deployment seen through a reindex generation: reads of `_quire/search/<name>` come from
 * `_quire/search/reindex/<jobId>/<name>`; everything else is the deployment's own. Its `key` names the
 * generation, so an index cache keeps the two apart.
 */
export function generationFiles(files: DeploymentFiles, jobId: string): DeploymentFiles {
  const dir = generationDir(jobId);
  const map = (file: string) => (file.startsWith(SEARCH_DIR) && !file.startsWith(REINDEX_DIR) ? `${dir}${file.slice(SEARCH_DIR.length)}` : file);
  return {
    key: `${files.key}\0reindex:${jobId}`,
    async list() {
      const listed = await files.list();
      const out = new Set<string>();
      for (const f of listed) {
        if (f.startsWith(dir)) out.add(`${SEARCH_DIR}${f.slice(dir.length)}`);
        else if (!f.startsWith(SEARCH_DIR)) out.add(f);
      }
      return out;
    },
    read: (file) => files.read(map(file)),
  };
}

/** The newest completed reindex of each project, for a short while (see the module comment). */
export class Generations {
  private readonly known = new LRUCache<string, { generation: Generation | null }>({ max: 10_000, ttl: GENERATION_TTL_MS });

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'events'>) {
    ctx.events.on('search.reindexed', ({ projectId }) => this.known.delete(projectId));
    ctx.events.on('reconnected', () => this.known.clear());
  }

  /** The project's newest completed reindex, or null. */
  current(projectId: string): Generation | null | Promise<Generation | null> {
    const hit = this.known.get(projectId);
    if (hit) return hit.generation;
    return this.ctx.db.prisma.reindexJob
      .findFirst({ where: { projectId, status: 'completed' }, orderBy: [{ finishedAt: 'desc' }, { id: 'desc' }], select: { id: true, startedAt: true } })
      .then((row) => {
        const generation = row?.startedAt ? { jobId: row.id, startedAt: row.startedAt } : null;
        this.known.set(projectId, { generation });
        return generation;
      });
  }

  /** Forgets what is known of a project (this process completed a reindex of it). */
  forget(projectId: string): void {
    this.known.delete(projectId);
  }
}
