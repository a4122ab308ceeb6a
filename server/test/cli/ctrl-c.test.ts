import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../platform/processes';

/**
 * Ctrl-C on `pnpm start` / `pnpm demo` as a terminal sends it: SIGINT to the whole foreground process
 * group (pnpm, the script's shell, tsx and the server). A graceful stop exits 0 all the way up, so pnpm
 * does not report "Command failed" (run-server.ts). The scripts are `exec node --import tsx ...`: no shell
 * between pnpm and the server dies of the signal, and no tsx wrapper kills a server that is slow to
 * answer its signal relay (it exits 130 when the child does not acknowledge within 60 ms).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Runs `pnpm <script>` in a process group of its own, waits for `ready` on stdout, then Ctrl-C. */
async function ctrlC(script: string, ready: RegExp): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `quire-ctrl-c-${script}-`));
  dirs.push(dataDir);
  const port = await freePort();
  const child = spawn('pnpm', [script], {
    cwd: root,
    detached: true, // its own process group, like a terminal's foreground job
    env: { ...process.env, QUIRE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', QUIRE_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => reject(new Error(`pnpm ${script} exited before it was ready:\n${output}`)));
  });
  process.kill(-child.pid!, 'SIGINT');
  const result = await exited;
  return { ...result, output };
}

describe('Ctrl-C on the long-running scripts', () => {
  it('pnpm start stops gracefully and exits 0, without "Command failed"', async () => {
    const run = await ctrlC('start', /Quire is running\./);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.output).not.toMatch(/Command failed|ELIFECYCLE/);
  }, 120_000);

  it('pnpm demo stops gracefully and exits 0 once the demo site is up', async () => {
    const run = await ctrlC('demo', /Demo site: http/);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.output).not.toMatch(/Command failed|ELIFECYCLE/);
  }, 240_000);
});
