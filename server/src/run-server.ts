import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { dataPaths } from './data-paths';
import { apiBaseUrl, ConfigError, loadConfig, type Config } from './env';
import { DOCS_PREFIX } from './plugins/openapi';

/**
 * Reads the configuration from the environment (with `overrides` applied), or exits 2 with the
 * variable named when it is invalid.
 */
export function configOrExit(overrides: NodeJS.ProcessEnv = {}): Config {
  try {
    return loadConfig({ ...process.env, ...overrides });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}

/**
 * Builds the app, listens, prints the startup banner, and installs the graceful stop: on SIGTERM or
 * SIGINT the server stops taking requests, lets running ones finish, requeues a running build
 * (the jobs plugin's preClose) and exits 0; after 30 s it gives up and exits 1.
 * Shared by `pnpm start` (server.ts) and `pnpm demo` (cli/demo.ts).
 */
export async function runServer(config: Config): Promise<FastifyInstance> {
  const app = await buildApp(config);
  if (!config.workers && !config.redisUrl) app.log.warn('QUIRE_WORKERS=0 without REDIS_URL: this process runs no builds and no other process can; queued builds wait until one runs with workers.');
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 30 s; exiting');
      process.exit(1);
    }, 30_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void close('SIGTERM'));
  process.on('SIGINT', () => void close('SIGINT'));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`Port ${config.port} on ${config.host} is already in use: stop the other process or set PORT.`);
      await app.close();
      process.exit(1);
    }
    throw err;
  }
  printBanner(app, apiBaseUrl(config));
  return app;
}

/**
 * The startup banner on stdout: API URL, API reference URL, and the admin key: on the first
 * start the generated key itself (printed this once) and the file it was written to.
 */
function printBanner(app: FastifyInstance, base: string): void {
  const boot = app.bootstrap;
  const lines = [`Quire is running.`, `  API:           ${base}/v1`, `  API reference: ${base}${DOCS_PREFIX}`];
  if (boot.created && boot.fromEnv) {
    lines.push("  Admin key:     QUIRE_ADMIN_KEY was registered as the default organization's admin key.");
  } else if (boot.created && boot.adminKey) {
    lines.push(`  Admin key:     ${boot.adminKey}`, `                 (shown once; also saved to ${boot.keyFile}, mode 0600)`);
  } else {
    const file = dataPaths(app.ctx.config.dataDir).adminKey;
    lines.push(fs.existsSync(file) ? `  Admin key:     in ${file}` : '  Admin key:     the QUIRE_ADMIN_KEY of the first start, or a key from `pnpm quire org create`');
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
