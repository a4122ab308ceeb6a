import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from './http/validator-compiler';
import { serializerCompiler } from './http/serializer-compiler';
import type { Config } from './env';
import { openDb, type Db } from './db/client';
import { createAppContext } from './context';
import { closeRedis } from './redis';
import errorsPlugin from './plugins/errors';
import requestIdPlugin from './plugins/request-id';
import storedTextPlugin from './plugins/stored-text';
import authPlugin from './plugins/auth';
import rateLimitPlugin from './plugins/rate-limit';
import resourceGatePlugin from './plugins/resource-gate';
import idempotencyPlugin from './plugins/idempotency';
import openapiPlugin from './plugins/openapi';
import sitesPlugin from './sites/index';
import homePagePlugin from './plugins/home-page';
import healthPlugin from './plugins/health';
import metricsPlugin from './plugins/metrics';
import jobsPlugin from './jobs/index';
import schedulePlugin from './jobs/schedule-plugin';
import webhookPlugin from './jobs/webhook-plugin';
import reindexPlugin from './jobs/reindex-plugin';
import agentPlugin from './jobs/agent-plugin';
import analyticsPlugin from './jobs/analytics-plugin';
import trpcPlugin from './trpc/index';
import v1Routes from './routes/v1/index';
import { bootstrap } from './services/bootstrap';
import { QuietLogController } from './http/log-controller';
import { deferredChildLoggerFactory } from './http/request-logger';

/** Options of {@link buildApp} beyond the configuration. */
export interface BuildAppOptions {
  /** An already-open database (tests share one); default: open `config.databaseUrl`. */
  db?: Db;
  /** Work build jobs in this process (default `config.workers`, QUIRE_WORKERS; tests of routes alone may turn it off). */
  runJobs?: boolean;
  /** Where JSON log lines are written (default stdout); tests capture them this way. */
  logStream?: { write(line: string): void };
}

/**
 * Builds the Quire server (API under /v1, tRPC under /trpc, sites by Host header, build runner)
 * without listening, so tests can drive it with `app.inject()`.
 * Order matters: sites answer site hosts before any API hook runs; the API chain is
 * request id → auth (before the body is read) → rate limit → resource gate (the resource the path
 * names, before the body is read) → idempotency → route.
 * @throws when the database cannot be opened or migrated.
 */
export async function buildApp(config: Config, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    logController: new QuietLogController(),
    childLoggerFactory: deferredChildLoggerFactory,
    bodyLimit: 1024 * 1024,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    trustProxy: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = options.db ?? (await openDb(config.databaseUrl));
  const ctx = createAppContext({ config, db, log: app.log });
  app.decorate('ctx', ctx);
  if (!options.db) app.addHook('onClose', async () => db.close());
  // Streams that last as long as a build would keep the server from closing: cut them first.
  app.addHook('preClose', async () => {
    const cut = ctx.liveStreams.cutAll();
    if (cut > 0) app.log.info({ streams: cut }, 'closed live event streams; their clients reconnect');
  });
  app.addHook('onClose', async () => ctx.deploymentStore.close());
  app.addHook('onClose', async () => ctx.jobs.close());
  app.addHook('onClose', async () => {
    await ctx.events.close();
    if (ctx.redis) await closeRedis(ctx.redis);
  });
  await ctx.events.ready().catch(async (err: unknown) => {
    await app.close();
    throw err;
  });
  app.decorate('bootstrap', await bootstrap(ctx));

  await app.register(errorsPlugin);
  await app.register(requestIdPlugin);
  await app.register(sitesPlugin);
  await app.register(healthPlugin);
  await app.register(homePagePlugin);
  await app.register(metricsPlugin);
  await app.register(authPlugin);
  await app.register(rateLimitPlugin);
  await app.register(resourceGatePlugin);
  await app.register(idempotencyPlugin);
  await app.register(storedTextPlugin);
  await app.register(openapiPlugin);
  await app.register(trpcPlugin, { prefix: '/trpc' });
  await app.register(v1Routes, { prefix: '/v1' });
  await app.register(jobsPlugin, { enabled: options.runJobs ?? config.workers, concurrency: config.buildConcurrency });
  await app.register(schedulePlugin, { enabled: options.runJobs ?? config.workers });
  await app.register(webhookPlugin, { enabled: options.runJobs ?? config.workers });
  await app.register(reindexPlugin, { enabled: options.runJobs ?? config.workers });
  await app.register(agentPlugin, { enabled: options.runJobs ?? config.workers });
  await app.register(analyticsPlugin);
  return app;
}
