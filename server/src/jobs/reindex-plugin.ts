/**
 * Search's background side in a server process, as a Fastify plugin decorated as
 * `app.reindexRunner` (jobs/reindex-runner.ts): in a process that works jobs (QUIRE_WORKERS, like
 * the build runner) it runs `reindex` jobs and re-enqueues the queued and interrupted ones on start.
 * In every process, `preClose` (before the database closes) stops the runner and waits for the
 * content-gap writes under way (services/content-gaps.ts), so a graceful stop loses none.
 */
import fp from 'fastify-plugin';
import { ReindexRunner, type ReindexRunnerOptions } from './reindex-runner';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reindex jobs of this process (jobs/reindex-runner.ts): always present, started only when the app works jobs. */
    reindexRunner: ReindexRunner;
  }
}

/** Options of the reindex plugin. */
export interface ReindexPluginOptions extends ReindexRunnerOptions {
  /** Run reindex jobs in this process once the app is ready (tests may start it themselves). */
  enabled: boolean;
}

export default fp<ReindexPluginOptions>(
  async (app, { enabled, ...options }) => {
    const runner = new ReindexRunner(app.ctx, options);
    app.decorate('reindexRunner', runner);
    app.addHook('preClose', async () => {
      await runner.stop();
      await app.ctx.search.gaps.settle();
    });
    if (enabled) app.addHook('onReady', async () => runner.start());
  },
  { name: 'reindex' },
);
