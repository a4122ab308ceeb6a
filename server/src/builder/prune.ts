import fs from 'node:fs';
import path from 'node:path';
import { dataPaths, PATH_ID_RE } from '../data-paths';
import { pruneBuildStates } from './build-state';
import { BuildError } from './errors';

/** Project and build ids as they may appear in a path under the data directory. */
export const ID_RE = PATH_ID_RE;

/**
 * Deletes the deployments of a project that are not in `keepDirs` (build ids or absolute paths).
 * Only finished deployments (directories holding manifest.json) are removed, so a build being
 * written is never touched. The build states of removed deployments go with them (build-state.ts).
 * Resolves with the removed build ids. Directories are removed asynchronously (a deployment of a
 * large site holds tens of thousands of files: removing them must not stall the server).
 */
export async function pruneDeployments(dataDir: string, projectId: string, keepDirs: string[]): Promise<string[]> {
  if (!ID_RE.test(projectId)) throw new BuildError('Invalid project id.');
  const root = dataPaths(dataDir).sites(projectId);
  const keep = new Set(keepDirs.map((d) => path.basename(d)));
  const removed: string[] = [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return removed;
  }
  for (const e of entries) {
    if (!e.isDirectory() || keep.has(e.name) || !fs.existsSync(path.join(root, e.name, 'manifest.json'))) continue;
    await fs.promises.rm(path.join(root, e.name), { recursive: true, force: true });
    removed.push(e.name);
  }
  if (removed.length > 0) pruneBuildStates(dataDir, projectId);
  return removed;
}
