import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore, type DesktopCore } from '../../src/core/compose';
import { createCoreCaller } from '../../src/core/router';
import { fileTokenVault } from '../../src/core/token-vault';

/** A desktop core (no server, nobody signed in, no auto sync) with a docs folder on disk, opened or not. */
export interface LocalFolderCore {
  /** the core's own data directory (temporary) */
  dataDir: string;
  /** the docs folder on disk (temporary) */
  folder: string;
  core: DesktopCore;
  /** the core's router, called in process */
  c: ReturnType<typeof createCoreCaller>;
  /** the opened folder's project id; '' when `open: false` */
  projectId: string;
  /** Writes `content` at the folder-relative path `rel`, creating its folders. */
  write(rel: string, content: string | Buffer): void;
  /** Closes the core and deletes both temporary directories. */
  close(): Promise<void>;
}

/**
 * Creates a temporary docs folder holding `files` (folder-relative path -> content), a core on a temporary data directory,
 * and opens the folder through `workspace.openFolder` unless `open` is false. `prefix` names the temporary directories.
 */
export async function startLocalFolderCore(
  prefix: string,
  files: Record<string, string | Buffer>,
  options: { open?: boolean } = {},
): Promise<LocalFolderCore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `quire-desktop-${prefix}-`));
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `quire-docs-${prefix}-`));
  const write = (rel: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), content);
  };
  for (const [rel, content] of Object.entries(files)) write(rel, content);
  const core = createCore({ dataDir, vault: fileTokenVault(dataDir), sync: { auto: false } });
  const c = createCoreCaller(core);
  const projectId = options.open === false ? '' : (await c.workspace.openFolder({ path: folder })).projectId;
  const close = async () => {
    await core.close();
    for (const d of [dataDir, folder]) fs.rmSync(d, { recursive: true, force: true });
  };
  return { dataDir, folder, core, c, projectId, write, close };
}
