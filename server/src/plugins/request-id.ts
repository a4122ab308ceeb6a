/**
 * `X-Request-Id` on every response (decisions.md section 3): the id Fastify generated for the
 * request (a UUID, also the `reqId` of its log lines). API and site responses also get
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
