/**
 * `X-Request-Id` on every response (decisions.md section 3): the id Fastify generated for the
 * request (a UUID). It is also the `reqId` of every JSON log line written through `req.log`
 * (Fastify's request child logger: incoming/completed lines at `debug`, failures at `error` by the
 * errors plugin), so a client's id finds the lines of its request. Code running for a request logs
 * through `req.log` (or a child of it); `ctx.log` is for work outside requests (build runner lines
 * carry `buildId` and `projectId` instead). API and site responses also get
 * `X-Content-Type-Options: nosniff` (decisions.md section 10).
 */
import fp from 'fastify-plugin';

export default fp(
  async (app) => {
    // Callback style (no promise per request): this hook runs on every API call.
    app.addHook('onRequest', (req, reply, done) => {
      reply.header('x-request-id', req.id);
      reply.header('x-content-type-options', 'nosniff');
      done();
    });
  },
  { name: 'request-id' },
);
