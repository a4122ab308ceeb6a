import { buildApp } from '../app';
import { loadConfig } from '../env';
import { EXIT_USAGE } from './args';
import type { CliIo } from './io';

/** Usage of `pnpm quire worker`. */
export const WORKER_USAGE = `Usage: pnpm quire worker

Runs a worker process: it works build jobs of the queue (BullMQ with REDIS_URL; see README
"Deployment") and serves no HTTP. Same settings as the server (DATABASE_URL, REDIS_URL,
QUIRE_QUEUE_PREFIX, QUIRE_DATA_DIR, QUIRE_S3_*, QUIRE_BUILD_*). On SIGTERM or SIGINT it stops
taking jobs; a running build goes back to the queue for another worker, and it exits 0.`;

/**
 * `pnpm quire worker`: builds the app without listening and works jobs until SIGTERM/SIGINT
 * (decisions.md section 1). Without REDIS_URL it works the in-process queue alone, which only
 * this process feeds (queued builds found in the database), so the server should run with
 * QUIRE_WORKERS=0 only with REDIS_URL.
 * @returns the exit status once stopped: 0 after a signal, 2 on a usage error.
 */
export async function runWorker(argv: readonly string[], io: CliIo, signals: NodeJS.EventEmitter = process): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(WORKER_USAGE);
    return 0;
  }
  if (argv.length > 0) {
    io.err(`error: pnpm quire worker takes no arguments.\n\n${WORKER_USAGE}`);
    return EXIT_USAGE;
  }
  const config = loadConfig({ ...process.env, QUIRE_WORKERS: '1' });
  if (!config.redisUrl) io.err('warning: REDIS_URL is not set: this worker only runs builds found queued in its own database sweep, every 2 s.');
  const app = await buildApp(config, { runJobs: true });
  await app.ready();
  io.out(`Quire worker running (queue: ${app.ctx.jobs.backend}, prefix ${config.queuePrefix}, concurrency ${config.buildConcurrency}).`);
  const signal = await new Promise<string>((resolve) => {
    signals.once('SIGTERM', () => resolve('SIGTERM'));
    signals.once('SIGINT', () => resolve('SIGINT'));
  });
  app.log.info({ signal }, 'worker stopping');
  const timer = setTimeout(() => {
    app.log.error('worker shutdown took longer than 30 s; exiting');
    process.exit(1);
  }, 30_000);
  timer.unref();
  await app.close();
  clearTimeout(timer);
  return 0;
}
