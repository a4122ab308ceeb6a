import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirLockTimeoutError, STALE_MS, withDirLock } from '../../src/git/dir-lock';

const DIR_LOCK_MODULE = fileURLToPath(new URL('../../src/git/dir-lock.ts', import.meta.url));

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-dir-lock-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** Starts another Node process that holds the lock of `dir` until `releaseFile` exists, then writes `doneFile`. */
function holdInOtherProcess(dir: string, releaseFile: string, doneFile: string): { held: Promise<void>; exited: Promise<number | null> } {
  const script = `
    import fs from 'node:fs';
    import { setTimeout as sleep } from 'node:timers/promises';
    const { withDirLock } = await import(${JSON.stringify(DIR_LOCK_MODULE)});
    await withDirLock(${JSON.stringify(dir)}, async () => {
      process.stdout.write('held\\n');
      while (!fs.existsSync(${JSON.stringify(releaseFile)})) await sleep(10);
      fs.writeFileSync(${JSON.stringify(doneFile)}, 'done');
    });
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const held = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('held')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the other process exited (${code}) before holding the lock`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { held, exited };
}

describe('withDirLock: one user of a git cache directory at a time', () => {
  it('runs overlapping calls of one process one after the other, and calls on other directories alongside', async () => {
    const dir = path.join(root, 'repos', 'prj_a');
    let active = 0;
    let most = 0;
    const work = async (): Promise<void> => {
      active += 1;
      most = Math.max(most, active);
      await sleep(20);
      active -= 1;
    };
    await Promise.all([withDirLock(dir, work), withDirLock(dir, work), withDirLock(dir, work)]);
    expect(most).toBe(1);
    const other = path.join(root, 'repos', 'prj_b');
    let together = false;
    await Promise.all([
      withDirLock(dir, async () => {
        await sleep(50);
      }),
      withDirLock(other, async () => {
        together = true;
      }),
    ]);
    expect(together).toBe(true);
  });

  it('makes another process wait until the holder is done', async () => {
    const dir = path.join(root, 'repos', 'prj_x');
    const releaseFile = path.join(root, 'release');
    const doneFile = path.join(root, 'done');
    const other = holdInOtherProcess(dir, releaseFile, doneFile);
    await other.held;
    let sawDone: boolean | undefined;
    const mine = withDirLock(dir, async () => {
      sawDone = fs.existsSync(doneFile);
    });
    await sleep(200);
    expect(sawDone).toBeUndefined();
    fs.writeFileSync(releaseFile, 'go');
    await mine;
    expect(sawDone).toBe(true);
    expect(await other.exited).toBe(0);
  }, 30_000);

  it('takes over the lock of a holder that died', async () => {
    const dir = path.join(root, 'repos', 'prj_dead');
    const lockDir = `${dir}.lock`;
    fs.mkdirSync(lockDir, { recursive: true });
    const old = new Date(Date.now() - STALE_MS - 5_000);
    fs.utimesSync(lockDir, old, old);
    await expect(withDirLock(dir, async () => 'ran')).resolves.toBe('ran');
    expect(fs.existsSync(lockDir)).toBe(false);
  });

  it('releases the lock when the work throws', async () => {
    const dir = path.join(root, 'repos', 'prj_throw');
    await expect(withDirLock(dir, async () => Promise.reject(new Error('git failed')))).rejects.toThrow('git failed');
    await expect(withDirLock(dir, async () => 'next')).resolves.toBe('next');
  });

  it('gives up waiting when aborted or past the longest wait, leaving the holder alone', async () => {
    const dir = path.join(root, 'repos', 'prj_busy');
    let release!: () => void;
    const holding = withDirLock(dir, () => new Promise<void>((resolve) => (release = resolve)));
    await sleep(20);
    const controller = new AbortController();
    const aborted = withDirLock(dir, async () => 'never', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    await expect(withDirLock(dir, async () => 'never', { waitMs: 100 })).rejects.toBeInstanceOf(DirLockTimeoutError);
    release();
    await holding;
    await expect(withDirLock(dir, async () => 'after')).resolves.toBe('after');
  });
});
