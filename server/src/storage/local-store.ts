import fs from 'node:fs';
import path from 'node:path';
import { dataPaths } from '../data-paths';
import { pruneDeployments } from '../builder/prune';
import { listSiteFiles } from './site-files';
import type { DeploymentFiles, DeploymentStore, StoredFile } from './deployment-store';

/**
 * Read access to a deployment directory on local disk: the listing leaves out symbolic links and
 * special files (`listSiteFiles`), and only listed files are ever read by `DeploymentSite`.
 * @param dir absolute directory
 */
export function localDeploymentFiles(dir: string): DeploymentFiles {
  return {
    key: dir,
    list: () => listSiteFiles(dir),
    async read(file: string): Promise<StoredFile> {
      const abs = path.join(dir, ...file.split('/'));
      const [body, stat] = await Promise.all([fs.promises.readFile(abs), fs.promises.stat(abs)]);
      return { body, modified: stat.mtime };
    },
  };
}

/**
 * The default store: deployments stay where the builder wrote them, `<dataDir>/sites/<projectId>/<buildId>`
 * (`DataPaths.site`); nothing is copied and there are no pointer objects (the newest Deployment row
 * of a channel is served, decisions.md section 3).
 */
export class LocalDeploymentStore implements DeploymentStore {
  readonly kind = 'local';
  readonly hasPointers = false;

  constructor(private readonly dataDir: string) {}

  /** The staging directory is the deployment: returns its path relative to the data dir. */
  async publish(_projectId: string, _buildId: string, stagingDir: string): Promise<string> {
    return path.relative(this.dataDir, stagingDir).split(path.sep).join('/');
  }

  async activate(): Promise<void> {}

  async pointer(): Promise<string | null> {
    return null;
  }

  async deactivate(): Promise<void> {}

  open(dir: string): DeploymentFiles {
    return localDeploymentFiles(path.resolve(this.dataDir, dir));
  }

  async writeFiles(dir: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
    const root = path.resolve(this.dataDir, dir);
    if (!root.startsWith(dataPaths(this.dataDir).sitesRoot + path.sep)) throw new Error(`Not a deployment directory: ${dir}`);
    for (const [file, body] of files) {
      const abs = path.resolve(root, ...file.split('/'));
      if (!abs.startsWith(root + path.sep)) throw new Error(`Not a file of the deployment: ${file}`);
      await fs.promises.mkdir(path.dirname(abs), { recursive: true });
      const tmp = `${abs}.${process.pid}.${Date.now()}.tmp`;
      await fs.promises.writeFile(tmp, body);
      await fs.promises.rename(tmp, abs);
    }
  }

  async prune(projectId: string, keepBuildIds: string[]): Promise<string[]> {
    return pruneDeployments(this.dataDir, projectId, keepBuildIds);
  }

  async remove(dir: string): Promise<void> {
    const abs = path.resolve(this.dataDir, dir);
    if (!abs.startsWith(dataPaths(this.dataDir).sitesRoot + path.sep)) throw new Error(`Not a deployment directory: ${dir}`);
    await fs.promises.rm(abs, { recursive: true, force: true });
  }

  async removeProject(projectId: string): Promise<void> {
    await fs.promises.rm(dataPaths(this.dataDir).sites(projectId), { recursive: true, force: true });
  }

  async saveBuildLog(): Promise<void> {}

  async buildLog(): Promise<string | null> {
    return null;
  }

  async check(): Promise<void> {
    await fs.promises.mkdir(this.dataDir, { recursive: true });
    await fs.promises.access(this.dataDir, fs.constants.W_OK);
  }

  close(): void {}
}
