import fp from 'fastify-plugin';
import type { BuildRunner, BuildRunnerOptions } from './build-runner';

declare module 'fastify' {
  interface FastifyInstance {
    /** The build runner, `ctx.buildRunner` (handler of `build` jobs of `ctx.jobs`); always present, started only when the app works jobs. */
    buildRunner: BuildRunner;
  }
}

/** Options of the jobs plugin. */
export interface JobsPluginOptions extends BuildRunnerOptions {
  /** Start the runner when the app is ready (false in route tests that only need queued builds). */
  enabled: boolean;
}

/**
 * The build runner of the app context (`ctx.buildRunner`) as a Fastify plugin: configured with the
 * options, decorated as `app.buildRunner`, started on `onReady`
 * when enabled (requeuing builds a previous process left `building`; a test may instead call
 * `app.buildRunner.configure(...)` and `start()` itself), and stopped in `preClose`
 * (before the database closes), which requeues a running build: SIGTERM never leaves a build
 * stuck in `building`. When a project is deleted its running build is aborted and its files
 * (deployments, repository and page caches) are removed. It registers the `queue` readiness check
 * (`ctx.jobs.ping()`) and the queue depth of `/metrics` (jobs by state, all kinds summed).
 */
export default fp<JobsPluginOptions>(
  async (app, { enabled, ...options }) => {
    const runner = app.ctx.buildRunner;
    runner.configure(options);
    app.decorate('buildRunner', runner);
    app.ctx.readiness.register('queue', () => app.ctx.jobs.ping());
    app.ctx.metrics.setQueueDepth(async () => {
      const depth: Record<string, number> = {};
      for (const counts of Object.values(await app.ctx.jobs.counts())) {
        for (const [state, n] of Object.entries(counts)) depth[state] = (depth[state] ?? 0) + n;
      }
      return depth;
    });
    const forget = ({ projectId, deleted }: { projectId: string; deleted?: boolean }) => {
      if (deleted) runner.forgetProject(projectId).catch((err: unknown) => app.log.warn({ err, projectId }, 'cleaning up a deleted project failed'));
    };
    app.ctx.events.on('project.changed', forget);
    app.addHook('preClose', async () => {
      app.ctx.events.off('project.changed', forget);
      await runner.stop();
    });
    if (enabled) app.addHook('onReady', async () => runner.start());
  },
  { name: 'jobs' },
);
