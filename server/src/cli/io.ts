import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { generatePassword } from '../services/passwords';

/**
 * What a CLI command may touch of the outside world, so tests can run commands in-process with
 * their own streams and environment.
 */
export interface CliIo {
  /** Writes one line of normal output (machine-readable `key=value` lines and sentences). */
  out(line: string): void;
  /** Writes one line of diagnostics (errors, usage). */
  err(line: string): void;
  /** Standard input; `isTTY` true means an interactive terminal. */
  stdin: Readable & { isTTY?: boolean };
  /** Environment used for the configuration (QUIRE_DATA_DIR, DATABASE_URL, ...). */
  env: NodeJS.ProcessEnv;
  /** Directory relative paths in the environment are resolved against. */
  cwd: string;
}

/** The real process's streams and environment. */
export function processIo(): CliIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  };
}

/**
 * The first line of `input` without its line ending ('' at once-empty input), then stops reading
 * (the rest of the input is left unread).
 */
export function readFirstLine(input: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input, crlfDelay: Infinity, terminal: false });
    let done = false;
    const finish = (line: string) => {
      if (done) return;
      done = true;
      rl.close();
      input.pause();
      resolve(line);
    };
    rl.once('line', finish);
    rl.once('close', () => finish(''));
    input.once('error', reject);
  });
}

/** A password to set, and whether it was generated (then it must be printed once). */
export interface ObtainedPassword {
  password: string;
  generated: boolean;
}

/**
 * The password for `user add` / `user password` / `org create`: the first line
 * of stdin when stdin is not a terminal and that line is not empty; otherwise a generated
 * one-time password.
 */
export async function obtainPassword(io: CliIo): Promise<ObtainedPassword> {
  if (!io.stdin.isTTY) {
    const line = await readFirstLine(io.stdin);
    if (line.length > 0) return { password: line, generated: false };
  }
  return { password: generatePassword(), generated: true };
}
