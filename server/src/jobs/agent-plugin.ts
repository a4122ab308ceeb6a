/**
 * The docs agent's background side in a server process, as a Fastify plugin decorated as
 * `app.agentRunner` (jobs/agent-runner.ts): in a process that works jobs (QUIRE_WORKERS, like the
 * build runner) it runs `agent` jobs and re-enqueues queued and interrupted runs on start; `preClose`
 * (before the database closes) stops it and waits for the run under way.
 */
import fp from 'fastify-plugin';
import { AgentRunner, type AgentRunnerOptions } from './agent-runner';

declare module 'fastify' {
  interface FastifyInstance {
    /** Docs agent runs of this process (jobs/agent-runner.ts): always present, started only when the app works jobs. */
    agentRunner: AgentRunner;
  }
}

/** Options of the agent plugin. */
export interface AgentPluginOptions extends AgentRunnerOptions {
  /** Run agent jobs in this process once the app is ready (tests may start it themselves). */
  enabled: boolean;
}

export default fp<AgentPluginOptions>(
  async (app, { enabled, ...options }) => {
    const runner = new AgentRunner(app.ctx, options);
    app.decorate('agentRunner', runner);
    app.addHook('preClose', async () => runner.stop());
    if (enabled) app.addHook('onReady', async () => runner.start());
  },
  { name: 'agent' },
);
