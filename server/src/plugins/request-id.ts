/**
 * `X-Request-Id` on every response (decisions.md section 3): the id Fastify generated for the
 * request (a UUID). It is also the `reqId` of every JSON log line written through `req.log`
 * (Fastify's request child logger: incoming/completed lines at `debug`, failures at `error` by the
 * errors plugin), so a client's id finds the lines of its request. Services log through `ctx.log`,
 * which writes through the request's logger while a request is served: the request's hooks and
 * handler run inside `ctx.requestScope` (entered here). Outside requests (build runner) lines carry
 * `buildId` and `projectId` instead. API and site responses also get
 * `X-Content-Type-Options: nosniff` (decisions.md section 10).
 */
import fp from 'fastify-plugin';

export default fp(
  async (app) => {
    // Callback style (no promise per request): this hook runs on every API call.
    app.addHook('onRequest', (req, reply, done) => {
      reply.header('x-request-id', req.id);
      reply.header('x-content-type-options', 'nosniff');
      app.ctx.requestScope.run(req.log, done);
    });
  },
  { name: 'request-id' },
);
