/**
 * Analytics' background side in a server process, as a Fastify plugin: every process runs
 * `analytics` jobs (small batches of counts, analytics/batch.ts; every process records views, so
 * every process can write them, also without QUIRE_WORKERS), and `preClose` (before the job queue
 * and the database close) flushes `ctx.analytics` and waits for its batches, so a graceful stop
 * loses no count.
 */
import fp from 'fastify-plugin';
import { writeAnalyticsBatch } from '../analytics/batch';

/** Batches written at once by one process. */
const CONCURRENCY = 2;

export default fp(
  async (app) => {
    app.addHook('onReady', async () => app.ctx.jobs.process('analytics', async (batch) => writeAnalyticsBatch(app.ctx, batch), { concurrency: CONCURRENCY }));
    app.addHook('preClose', async () => app.ctx.analytics.close());
  },
  { name: 'analytics' },
);
