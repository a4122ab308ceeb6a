import { buildApp } from './app';
import { ConfigError, loadConfig } from './env';

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
}

void main();
