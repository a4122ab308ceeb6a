/**
 * Prometheus metrics (ops/metrics.ts) at `GET /metrics` on the API listener, and the API request
 * series fed from an `onResponse` hook (route pattern, not the raw URL; site hosting and the
 * operations endpoints are not counted). `/metrics` is an operations route (plugins/health.ts):
 * no API key, no rate limit. With `QUIRE_METRICS_TOKEN` set it needs `Authorization: Bearer
 * <token>` (401 `unauthorized` otherwise); unset, it is open to whoever reaches the listener, so
 * keep it off the public proxy or set the token.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import { ApiError } from '@quire/shared/errors';
import { API_REQUEST } from './auth';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

export default fp(
  async (app) => {
    const { metrics, config } = app.ctx;
    const token = config.metricsToken ? sha256(`Bearer ${config.metricsToken}`) : null;

    // Callback style (no promise per request), after the response: off the hot path. Only requests
    // that reached API authentication count (site hosts and operations routes are answered before).
    app.addHook('onResponse', (req, reply, done) => {
      if (req[API_REQUEST]) metrics.observeRequest(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

    app.get('/metrics', { config: { ops: true, public: true }, schema: { hide: true } }, async (req, reply) => {
      if (token && !timingSafeEqual(sha256(req.headers.authorization ?? ''), token)) {
        throw new ApiError('unauthorized', 'Send the metrics token as "Authorization: Bearer <QUIRE_METRICS_TOKEN>".');
      }
      const { contentType, body } = await metrics.render();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    });
  },
  { name: 'metrics', dependencies: ['health'] },
);
