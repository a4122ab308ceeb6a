import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { dataPaths } from '../data-paths';

/**
 * Where a build's log lives: `<dataDir>/logs/<buildId>.log` (plain text, one line per step or warning).
 * @throws Error for a build id that is not a plain id (`DataPaths.buildLog`).
 */
export function buildLogPath(dataDir: string, buildId: string): string {
  return dataPaths(dataDir).buildLog(buildId);
}

/**
 * Appends lines to a build's log file. Each line is written synchronously (a few hundred bytes to
 * the page cache), so the log endpoint always shows every line written so far, in order, and a
 * crash loses nothing already logged. A log that cannot be written never fails the build.
 */
export class BuildLog {
  private fd: number | undefined;

  constructor(dataDir: string, buildId: string) {
    const file = buildLogPath(dataDir, buildId);
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      this.fd = fs.openSync(file, 'a');
    } catch {
      this.fd = undefined;
    }
  }

  /** Writes one line (newlines inside are flattened to keep one entry per line). */
  line(text: string): void {
    if (this.fd === undefined) return;
    try {
      fs.writeSync(this.fd, `${text.replace(/\r?\n/g, ' ')}\n`);
    } catch {
      /* a full disk must not fail the build; the status still tells the outcome */
    }
  }

  /** Closes the file; later lines are dropped. */
  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Reads a build's log; an empty string when nothing was written yet (a queued build).
 * @throws the fs error for anything but a missing file.
 */
export async function readBuildLog(dataDir: string, buildId: string): Promise<string> {
  try {
    return await fs.promises.readFile(buildLogPath(dataDir, buildId), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/**
 * A build's log as any process sees it: the local file when this process ran the build (also while
 * it runs), else the copy the building process saved to the deployment store when the build ended
 * (S3 with several processes); an empty string when neither has it yet.
 */
export async function buildLogText(ctx: Pick<AppContext, 'config' | 'deploymentStore'>, projectId: string, buildId: string): Promise<string> {
  const local = await readBuildLog(ctx.config.dataDir, buildId);
  if (local !== '' || ctx.deploymentStore.kind === 'local') return local;
  return (await ctx.deploymentStore.buildLog(projectId, buildId)) ?? '';
}
