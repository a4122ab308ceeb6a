import path from 'node:path';
import { z } from 'zod';
import { isLoopbackHost } from '@quire/shared/net/loopback';

/** Configuration of `pnpm desktop:web`, from the environment. */
export interface WebConfig {
  port: number;
  /** the address (IPv6 without `[]`) or name to listen on: loopback unless `allowRemote` */
  host: string;
  /** `QUIRE_DESKTOP_ALLOW_REMOTE=1`: `host` may be an address other computers can reach */
  allowRemote: boolean;
  dataDir: string;
}

const EnvSchema = z.object({
  QUIRE_DESKTOP_PORT: z.coerce.number().int().min(0).max(65535).default(5199),
  QUIRE_DESKTOP_HOST: z.string().min(1).default('127.0.0.1'),
  QUIRE_DESKTOP_ALLOW_REMOTE: z.enum(['0', '1', 'false', 'true'], { message: 'expected 1 or 0' }).default('0'),
  QUIRE_DESKTOP_DATA_DIR: z.string().min(1).default('.quire-desktop'),
});

/**
 * Reads `QUIRE_DESKTOP_PORT` (default 5199), `QUIRE_DESKTOP_HOST` (default 127.0.0.1),
 * `QUIRE_DESKTOP_ALLOW_REMOTE` (`1`/`true` or `0`/`false`, default 0) and `QUIRE_DESKTOP_DATA_DIR`
 * (default `./.quire-desktop`, resolved against the working directory).
 *
 * The core holds the session token and answers as the signed-in person, so it serves this computer
 * only: a `QUIRE_DESKTOP_HOST` that is not a loopback address or a `localhost` name
 * ({@link isLoopbackHost}; `0.0.0.0`, `::`, a LAN address or any other name) is refused unless
 * `QUIRE_DESKTOP_ALLOW_REMOTE=1` (CWE-1327, binding to an unrestricted address).
 * @throws Error naming the variable and what was expected
 */
export function loadWebConfig(env: NodeJS.ProcessEnv = process.env): WebConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Quire Desktop: ${String(issue.path[0])} is invalid: ${issue.message}`);
  }
  const { QUIRE_DESKTOP_ALLOW_REMOTE: remote } = parsed.data;
  const host = parsed.data.QUIRE_DESKTOP_HOST.replace(/^\[(.*)\]$/, '$1'); // `[::1]` as Node's listen() takes it
  const allowRemote = remote === '1' || remote === 'true';
  if (!allowRemote && !isLoopbackHost(host)) {
    throw new Error(
      `Quire Desktop: QUIRE_DESKTOP_HOST=${host} is not a loopback address or localhost, so other computers could use ` +
        'your session through it. Listen on 127.0.0.1 (the default), or set QUIRE_DESKTOP_ALLOW_REMOTE=1 to allow it.',
    );
  }
  return { port: parsed.data.QUIRE_DESKTOP_PORT, host, allowRemote, dataDir: path.resolve(parsed.data.QUIRE_DESKTOP_DATA_DIR) };
}
