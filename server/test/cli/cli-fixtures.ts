import { Readable } from 'node:stream';
import type { CliIo } from '../../src/cli/io';
import { runCli } from '../../src/cli/run';

/** Output of one in-process CLI run. */
export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
  /** The `key=value` lines of stdout. */
  values: Record<string, string>;
}

/**
 * Runs `quire <argv>` in-process against the data directory `dataDir`. `stdin`: a string is piped
 * (not a terminal); `'tty'` simulates an interactive terminal with nothing typed. `env` adds
 * variables (e.g. REDIS_URL) to the CLI's environment.
 */
export async function quire(dataDir: string, argv: string[], stdin: string | 'tty' = '', env: Record<string, string> = {}): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const input = Object.assign(Readable.from(stdin === 'tty' ? [] : [stdin]), { isTTY: stdin === 'tty' });
  const io: CliIo = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    stdin: input,
    env: { QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent', ...env },
    cwd: dataDir,
  };
  const status = await runCli(argv, io);
  const stdout = out.join('\n');
  const values = Object.fromEntries(out.filter((l) => /^[a-z_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  return { status, stdout, stderr: err.join('\n'), values };
}
