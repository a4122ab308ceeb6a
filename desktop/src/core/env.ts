import path from 'node:path';
import { z } from 'zod';

/** Configuration of `pnpm desktop:web`, from the environment. */
export interface WebConfig {
  port: number;
  host: string;
  dataDir: string;
}

const EnvSchema = z.object({
  QUIRE_DESKTOP_PORT: z.coerce.number().int().min(0).max(65535).default(5199),
  QUIRE_DESKTOP_HOST: z.string().min(1).default('127.0.0.1'),
  QUIRE_DESKTOP_DATA_DIR: z.string().min(1).default('.quire-desktop'),
});

/**
 * Reads `QUIRE_DESKTOP_PORT` (default 5199), `QUIRE_DESKTOP_HOST` (default 127.0.0.1: the core
 * holds the session token and serves only this computer) and `QUIRE_DESKTOP_DATA_DIR` (default
 * `./.quire-desktop`, resolved against the working directory).
 * @throws Error naming the variable and what was expected
 */
export function loadWebConfig(env: NodeJS.ProcessEnv = process.env): WebConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Quire Desktop: ${String(issue.path[0])} is invalid: ${issue.message}`);
  }
  return { port: parsed.data.QUIRE_DESKTOP_PORT, host: parsed.data.QUIRE_DESKTOP_HOST, dataDir: path.resolve(parsed.data.QUIRE_DESKTOP_DATA_DIR) };
}
