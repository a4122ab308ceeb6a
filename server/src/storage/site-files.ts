import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Lists every regular file under a deployment directory, as `/`-separated paths relative to it
 * (`guides/setup.html`). Symbolic links (to files or folders, inside or outside the deployment)
 * and special files are left out, so a request can only ever reach a file listed here.
 * @throws Error when `root` cannot be read.
 */
export async function listSiteFiles(root: string): Promise<Set<string>> {
  const out = new Set<string>();
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    await Promise.all(
      entries.map(async (e) => {
        const rel = prefix ? `${prefix}/${e.name}` : e.name;
        if (e.isDirectory()) await walk(path.join(dir, e.name), rel);
        else if (e.isFile()) out.add(rel);
      }),
    );
  };
  await walk(root, '');
  return out;
}
