import { LRUCache } from 'lru-cache';
import type { CachedFile } from './cached-file';

/** Bytes of site files (all encodings) one server process keeps in memory for all projects together. */
export const SITE_CACHE_TOTAL_BYTES = 512 * 1024 * 1024;
/**
 * Bytes of site files one project (all its deployments: production and previews) may keep in
 * memory, so that one tenant's large files cannot push every other site out of the cache.
 * A single file can take up to 20 MB plus its compressed forms, so this leaves room for several.
 */
export const SITE_CACHE_PROJECT_BYTES = 128 * 1024 * 1024;

/** Byte limits of a {@link SiteFileCache}. */
export interface SiteCacheLimits {
  /** all projects together, bytes (> 0) */
  totalBytes: number;
  /** each project, bytes (> 0) */
  projectBytes: number;
}

interface Entry {
  projectId: string;
  file: CachedFile;
}

/**
 * The in-memory site files of every served deployment, bounded twice: least recently used
 * files are dropped when all projects together pass `totalBytes`, and a project's own least
 * recently used files when that project passes `projectBytes`. Sizes are `CachedFile.size`
 * (identity plus compressed bodies). Two `lru-cache` instances hold the same entries (one for
 * all, one per project); evicting from either removes the entry from the other. A file larger
 * than a limit is never kept (the deployment reads it from disk on each request).
 *
 * One per process (built with the site resolver); keys must be unique across deployments
 * (`DeploymentSite` uses its directory and the file's path).
 */
export class SiteFileCache {
  private readonly all: LRUCache<string, Entry>;
  private readonly projects = new Map<string, LRUCache<string, Entry>>();

  constructor(readonly limits: SiteCacheLimits = { totalBytes: SITE_CACHE_TOTAL_BYTES, projectBytes: SITE_CACHE_PROJECT_BYTES }) {
    this.all = new LRUCache<string, Entry>({
      maxSize: limits.totalBytes,
      sizeCalculation: sizeOf,
      dispose: (entry, key, reason) => {
        if (reason === 'evict') this.dropFromProject(entry.projectId, key);
      },
    });
  }

  /** The cached file under `key`, marking it recently used; `undefined` when not cached (or evicted). */
  get(projectId: string, key: string): CachedFile | undefined {
    const entry = this.projects.get(projectId)?.get(key);
    if (!entry) return undefined;
    this.all.get(key);
    return entry.file;
  }

  /**
   * Keeps `file` under `key`, evicting least recently used files of the project and then of
   * everyone as needed.
   * @returns false when the file is larger than a limit (it is not kept)
   */
  set(projectId: string, key: string, file: CachedFile): boolean {
    if (sizeOf({ projectId, file }) > Math.min(this.limits.projectBytes, this.limits.totalBytes)) return false;
    let project = this.projects.get(projectId);
    if (!project) {
      project = new LRUCache<string, Entry>({
        maxSize: this.limits.projectBytes,
        sizeCalculation: sizeOf,
        dispose: (_entry, evicted, reason) => {
          if (reason === 'evict') this.all.delete(evicted);
        },
      });
      this.projects.set(projectId, project);
    }
    const entry = { projectId, file };
    project.set(key, entry);
    this.all.set(key, entry);
    return true;
  }

  /** Forgets the files under `keys` (a deployment no longer served). */
  delete(projectId: string, keys: Iterable<string>): void {
    for (const key of keys) {
      this.all.delete(key);
      this.dropFromProject(projectId, key);
    }
  }

  /** Bytes held for one project, or for all projects when `projectId` is omitted. */
  bytes(projectId?: string): number {
    if (projectId === undefined) return this.all.calculatedSize;
    return this.projects.get(projectId)?.calculatedSize ?? 0;
  }

  private dropFromProject(projectId: string, key: string): void {
    const project = this.projects.get(projectId);
    if (!project) return;
    project.delete(key);
    if (project.size === 0) this.projects.delete(projectId);
  }
}

/** lru-cache sizes must be positive integers; an empty file still counts as 1 byte. */
function sizeOf(entry: Entry): number {
  return Math.max(1, entry.file.size);
}
