/**
 * Per-organization rate limits by plan with `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (Unix seconds) on every API response, and 429 `rate_limited` with
 * `Retry-After` (interface-spec.md "Limits"; decisions.md section 3).
 * Authenticated calls count against their organization (free 100, pro 1,000 per minute,
 * enterprise configured); everything else reaching the API (public routes, /trpc, unknown routes,
 * refused keys) counts against the client IP with {@link PUBLIC_RATE_LIMIT}. Requests refused
 * before this hook ran (401/403) are counted in `onSend`, without refusing them a second time
 * (a 429 of the auth plugin's failed-authentication limit keeps that limit's headers).
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiter, rateLimitedError, type RateLimitState } from '../services/rate-limiter';
import { API_REQUEST, ORG_RATE_LIMIT } from './auth';

/** Requests per minute per client IP for calls without a valid API key. */
export const PUBLIC_RATE_LIMIT = 1_000;

const STATE = Symbol('quire.rateLimit');
declare module 'fastify' {
  interface FastifyRequest {
    [STATE]?: RateLimitState;
  }
}

function count(limiter: RateLimiter, req: FastifyRequest): RateLimitState {
  const orgLimit = req[ORG_RATE_LIMIT];
  const state = req.auth && orgLimit !== undefined
    ? limiter.hit(`org:${req.auth.orgId}`, orgLimit)
    : limiter.hit(`ip:${req.ip}`, PUBLIC_RATE_LIMIT);
  req[STATE] = state;
  return state;
}

function setHeaders(reply: FastifyReply, state: RateLimitState): void {
  reply.header('x-ratelimit-limit', state.limit);
  reply.header('x-ratelimit-remaining', state.remaining);
  reply.header('x-ratelimit-reset', state.reset);
}

export default fp(
  async (app) => {
    const limiter = new RateLimiter();
    // Callback-style hooks (no promise per request): they run on every API call.
    app.addHook('onRequest', (req, reply, done) => {
      const state = count(limiter, req);
      setHeaders(reply, state);
      done(state.exceeded ? rateLimitedError(state) : undefined);
    });
    app.addHook('onSend', (req, reply, payload, done) => {
      if (req[API_REQUEST] && !req[STATE]) {
        const state = count(limiter, req);
        if (!reply.hasHeader('x-ratelimit-limit')) setHeaders(reply, state);
      }
      done(null, payload);
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
