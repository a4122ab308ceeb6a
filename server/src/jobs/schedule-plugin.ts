import fp from 'fastify-plugin';
import { ScheduleRunner, type ScheduleRunnerOptions } from './schedule-runner';

declare module 'fastify' {
  interface FastifyInstance {
    /** The schedule runner (handler of `schedule` jobs of `ctx.jobs`); always present, started only when the app works jobs. */
    scheduleRunner: ScheduleRunner;
  }
}

/** Options of the schedules plugin. */
export interface SchedulePluginOptions extends ScheduleRunnerOptions {
  /** Start the runner when the app is ready (as the build runner: `QUIRE_WORKERS`; tests may start it themselves). */
  enabled: boolean;
}

/**
 * The schedule runner (jobs/schedule-runner.ts) as a Fastify plugin: decorated as
 * `app.scheduleRunner`, started on `onReady` when enabled (running schedules missed while no
 * server ran, enqueuing upcoming ones), stopped in `preClose` before the database closes.
 */
export default fp<SchedulePluginOptions>(
  async (app, { enabled, ...options }) => {
    const runner = new ScheduleRunner(app.ctx, options);
    app.decorate('scheduleRunner', runner);
    app.addHook('preClose', async () => runner.stop());
    if (enabled) app.addHook('onReady', async () => runner.start());
  },
  { name: 'schedules' },
);
