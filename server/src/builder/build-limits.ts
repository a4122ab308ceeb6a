/**
 * What one build may cost (decisions.md section 10: a build reads only its checkout and never
 * exhausts the server). Every repository-controlled input is bounded: what git may download, the
 * size and file count of the checked-out tree, the heap of the threads that parse and render it
 * (`WORKER_HEAP_MB`, render-pool.ts), the size of what it writes, and its wall-clock time. A build that hits a limit fails with a
 * {@link BuildError} that names the limit (and the file, when one file is the cause); the server and
 * other projects' builds and sites carry on.
 */

/** The limits of one build. Sizes are bytes, times milliseconds. */
export interface BuildLimits {
  /** largest download of one fetch (the packfile git receives); default 1 GiB */
  maxFetchBytes: number;
  /** largest sum of file sizes in the checked-out tree; default 1 GiB */
  maxTreeBytes: number;
  /** most files (blobs and symlinks) in the checked-out tree; default 50,000 */
  maxTreeFiles: number;
  /** largest rendered HTML of one page; default 20 MiB */
  maxPageBytes: number;
  /** largest sum of all rendered pages' HTML; default 1 GiB */
  maxOutputBytes: number;
  /** wall-clock budget of the whole build, checkout included; default 15 minutes */
  timeoutMs: number;
}

const MIB = 1024 * 1024;

/**
 * Defaults: far above what the largest real documentation repositories need (984 pages, a few hundred MB).
 * A single file larger than `MAX_FILE_BYTES` (checkout-files.ts) is left out with a warning.
 */
export const DEFAULT_BUILD_LIMITS: Readonly<BuildLimits> = Object.freeze({
  maxFetchBytes: 1024 * MIB,
  maxTreeBytes: 1024 * MIB,
  maxTreeFiles: 50_000,
  maxPageBytes: 20 * MIB,
  maxOutputBytes: 1024 * MIB,
  timeoutMs: 15 * 60_000,
});

/** `1536 MiB`, `20 MiB`, `512 KiB`: a size for a user-facing message. */
export function formatBytes(bytes: number): string {
  if (bytes >= MIB) return `${Math.round((bytes / MIB) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

/**
 * The limits a server configuration sets: `QUIRE_BUILD_TIMEOUT_SECONDS`, `QUIRE_BUILD_MAX_REPO_MB`
 * (download and checked-out size) and `QUIRE_BUILD_MAX_FILES`; the rest keep their defaults.
 */
export function buildLimitsFrom(config: { buildTimeoutSeconds: number; buildMaxRepoMb: number; buildMaxFiles: number }): BuildLimits {
  return {
    ...DEFAULT_BUILD_LIMITS,
    timeoutMs: config.buildTimeoutSeconds * 1000,
    maxFetchBytes: config.buildMaxRepoMb * MIB,
    maxTreeBytes: config.buildMaxRepoMb * MIB,
    maxTreeFiles: config.buildMaxFiles,
  };
}
