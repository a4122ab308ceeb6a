/**
 * Builds a Quire app for route tests driven by `app.inject()`: a fresh temporary data directory
 * (its own SQLite database), silent logs, `QUIRE_ALLOW_FILE_REPOS=1`, the build runner off unless
 * asked for, and the bootstrap admin key of the default organization.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/env';
import type { AppContext } from '../../src/context';

/** Options of {@link createTestApp}. */
export interface TestAppOptions {
  /** Extra environment variables (override the defaults above), e.g. `{ QUIRE_DEFAULT_PLAN: 'free' }`. */
  env?: Record<string, string>;
  /** Start the in-process build runner (default false). */
  runJobs?: boolean;
}

/** A ready test app; call `close()` in `afterAll`/`afterEach` (closes the app and removes the data dir). */
export interface TestApp {
  app: FastifyInstance;
  /** The default organization's bootstrap `admin` key. */
  adminKey: string;
  ctx: AppContext;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Creates a ready app on a temporary data directory.
 * @example const t = await createTestApp(); const res = await t.app.inject({ url: '/v1/projects', headers: { authorization: `Bearer ${t.adminKey}` } });
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-test-'));
  const config = loadConfig({
    QUIRE_DATA_DIR: dataDir,
    QUIRE_LOG_LEVEL: 'silent',
    QUIRE_ALLOW_FILE_REPOS: '1',
    ...options.env,
  });
  const app = await buildApp(config, { runJobs: options.runJobs ?? false });
  await app.ready();
  const adminKey = app.bootstrap.adminKey;
  if (!adminKey) throw new Error('createTestApp: bootstrap did not create an admin key');
  let closed = false;
  return {
    app,
    adminKey,
    ctx: app.ctx,
    dataDir,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `{ authorization: 'Bearer <key>' }` for inject(). */
export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}
