/**
 * Operations endpoints outside `/v1` (issue scope "Operations"; architecture: one process serves
 * API, sites and these): `GET /healthz` answers 200 `{"status":"ok"}` while the process runs;
 * `GET /readyz` runs the context's readiness checks (ops/readiness.ts: this plugin registers
 * `database`, a `SELECT 1` through Prisma, and `storage`, the deployment store's `check()`; the job
 * queue and others register their own) and answers 200 `{status:"ok",checks}` or 503
 * `{status:"failing",checks}` with each check's `status` and `ms`.
 *
 * Routes marked `config.ops` (these and `/metrics`) are answered from an `onRequest` hook that
 * runs before authentication and rate limiting: they need no key, use no rate-limit budget and
 * are not counted as API requests. A site host still gets its site (site hosting runs first).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An operations endpoint: answered before auth and rate limits (plugins/health.ts). */
    ops?: boolean;
  }
}

/** Time one readiness check may take before it counts as failing, in ms. */
export const READINESS_TIMEOUT_MS = 2000;

export default fp(
  async (app: FastifyInstance) => {
    const { readiness, db, deploymentStore } = app.ctx;
    readiness.register('database', () => db.prisma.$queryRaw`SELECT 1`);
    readiness.register('storage', () => deploymentStore.check());

    // Callback style (no promise per request): this hook runs on every API call.
    app.addHook('onRequest', (req, reply, done) => {
      if (!req.routeOptions.config.ops) return done();
      Promise.resolve()
        .then(() => req.routeOptions.handler.call(app, req, reply))
        .then(
          (payload) => {
            if (!reply.sent) reply.send(payload);
          },
          (err: unknown) => reply.send(err),
        );
    });

    const config = { ops: true, public: true };
    app.get('/healthz', { config, schema: { hide: true } }, (_req, reply) => {
      reply.header('cache-control', 'no-store').send({ status: 'ok' });
    });
    app.get('/readyz', { config, schema: { hide: true } }, async (req, reply) => {
      const report = await readiness.run(READINESS_TIMEOUT_MS, (name, err) => req.log.warn({ err, check: name }, 'readiness check failing'));
      return reply.code(report.status === 'ok' ? 200 : 503).header('cache-control', 'no-store').send(report);
    });
  },
  { name: 'health', dependencies: ['errors'] },
);
