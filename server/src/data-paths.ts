import path from 'node:path';

/** Project and build ids as they may appear in a path under the data directory (newId's alphabet). */
export const PATH_ID_RE = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * Returns `id` when it is safe as one path segment under the data directory.
 * @throws Error naming `what` when `id` holds anything but `[A-Za-z0-9_-]` (1-100 characters), so a
 *   hostile id can never reach outside its folder.
 */
function segment(id: string, what: string): string {
  if (!PATH_ID_RE.test(id)) throw new Error(`Invalid ${what} for a data-directory path: ${JSON.stringify(id)}`);
  return id;
}

/**
 * Every path under `QUIRE_DATA_DIR` (decisions.md section 1: one data directory holds the embedded
 * database, repository caches, built sites and logs). All results are absolute when `dataDir` is.
 * Ids are checked with {@link PATH_ID_RE}; the functions throw on anything else.
 */
export interface DataPaths {
  /** the data directory itself */
  root: string;
  /** the embedded SQLite database: `<dataDir>/quire.db` */
  database: string;
  /** the first admin key written on bootstrap: `<dataDir>/admin-key` (mode 0600) */
  adminKey: string;
  /** the demo's git repository (`pnpm demo`): `<dataDir>/demo-repo` */
  demoRepo: string;
  /** a project's repository cache (bare clone, worker-local): `<dataDir>/repos/<projectId>` */
  repos(projectId: string): string;
  /** the server's read cache of a project's repository (no working tree; separate from builds): `<dataDir>/git-read/<projectId>` */
  repoReadCache(projectId: string): string;
  /** scratch clones of merges, each removed after its merge: `<dataDir>/git-merge` */
  mergeScratch: string;
  /** the key sealing stored secrets when QUIRE_SECRET_KEY is unset: `<dataDir>/secret-key` (mode 0600) */
  secretKey: string;
  /** everything cached for a project (`<dataDir>/cache/<projectId>`) */
  cache(projectId: string): string;
  /** a project's rendered-page cache: `<dataDir>/cache/<projectId>/pages` */
  pageCache(projectId: string): string;
  /** a project's lint-result cache: `<dataDir>/cache/<projectId>/lint` */
  lintCache(projectId: string): string;
  /** every local deployment: `<dataDir>/sites` */
  sitesRoot: string;
  /** all local deployments of a project: `<dataDir>/sites/<projectId>` */
  sites(projectId: string): string;
  /** one deployment (or a build's staging directory): `<dataDir>/sites/<projectId>/<buildId>` */
  site(projectId: string, buildId: string): string;
  /** a build's log: `<dataDir>/logs/<buildId>.log` */
  buildLog(buildId: string): string;
  /** the directory of build logs: `<dataDir>/logs` */
  logs: string;
}

/** The {@link DataPaths} of a data directory (`Config.dataDir`). */
export function dataPaths(dataDir: string): DataPaths {
  const at = (...parts: string[]) => path.join(dataDir, ...parts);
  return {
    root: dataDir,
    database: at('quire.db'),
    adminKey: at('admin-key'),
    demoRepo: at('demo-repo'),
    logs: at('logs'),
    sitesRoot: at('sites'),
    repos: (projectId) => at('repos', segment(projectId, 'project id')),
    repoReadCache: (projectId) => at('git-read', segment(projectId, 'project id')),
    mergeScratch: at('git-merge'),
    secretKey: at('secret-key'),
    cache: (projectId) => at('cache', segment(projectId, 'project id')),
    pageCache: (projectId) => at('cache', segment(projectId, 'project id'), 'pages'),
    lintCache: (projectId) => at('cache', segment(projectId, 'project id'), 'lint'),
    sites: (projectId) => at('sites', segment(projectId, 'project id')),
    site: (projectId, buildId) => at('sites', segment(projectId, 'project id'), segment(buildId, 'build id')),
    buildLog: (buildId) => at('logs', `${segment(buildId, 'build id')}.log`),
  };
}
