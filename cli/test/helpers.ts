import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../src/commands';

/** The fixtures folder. */
export const FIXTURES = path.join(import.meta.dirname, 'fixtures');

/** Runs the CLI in-process from `cwd`; what it wrote and its exit status. */
export async function cli(args: string[], cwd = FIXTURES): Promise<{ status: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const status = await runCli(args, { out: (t) => (out += t), err: (t) => (err += t), cwd });
  return { status, out, err };
}

/** A copy of a fixture in a temporary folder (for commands that write). */
export function copyFixture(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-docs-'));
  fs.cpSync(path.join(FIXTURES, name), dir, { recursive: true });
  return dir;
}
