import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { ADMIN_KEY_FILE } from './services/bootstrap';
import { apiBaseUrl, ConfigError, loadConfig } from './env';
import { DOCS_PREFIX } from './plugins/openapi';

/**
 * The server process: parse the environment, build the app, listen, and close gracefully on
 * SIGTERM/SIGINT (stop taking requests, let running ones finish, requeue a running build, exit 0).
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const app = await buildApp(config);
  if (config.redisUrl) app.log.warn('REDIS_URL is set, but the BullMQ queue is not part of this release: builds run in-process.');
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
  await app.listen({ port: config.port, host: config.host });
  printBanner(app, apiBaseUrl(config));
}

/**
 * The startup banner on stdout: API URL, API reference URL, and the admin key: on the first
 * start the generated key itself (printed this once) and the file it was written to.
 */
function printBanner(app: Awaited<ReturnType<typeof buildApp>>, base: string): void {
  const boot = app.bootstrap;
  const lines = [`Quire is running.`, `  API:           ${base}/v1`, `  API reference: ${base}${DOCS_PREFIX}`];
  if (boot.created && boot.fromEnv) {
    lines.push('  Admin key:     QUIRE_ADMIN_KEY was registered as the default organization\'s admin key.');
  } else if (boot.created && boot.adminKey) {
    lines.push(`  Admin key:     ${boot.adminKey}`, `                 (shown once; also saved to ${boot.keyFile}, mode 0600)`);
  } else {
    const file = path.join(app.ctx.config.dataDir, ADMIN_KEY_FILE);
    lines.push(fs.existsSync(file) ? `  Admin key:     in ${file}` : '  Admin key:     the QUIRE_ADMIN_KEY of the first start, or a key from `pnpm quire org create`');
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

void main();
