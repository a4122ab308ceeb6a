/**
 * Per-organization rate limits by plan with `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (Unix seconds) on every API response, and 429 `rate_limited` with
 * `Retry-After` (interface-spec.md "Limits"; decisions.md section 3).
 * Authenticated calls count against their organization (free 100, pro 1,000 per minute,
 * enterprise configured); everything else reaching the API (public routes, /trpc, unknown routes,
 * refused keys) counts against the client IP with {@link PUBLIC_RATE_LIMIT}. Requests refused
 * before this hook ran (401/403) are counted in `onSend`, without refusing them a second time
 * (a 429 of the auth plugin's failed-authentication limit keeps that limit's headers).
 * Counters live in the app context's store (`ctx.rateLimits`): in memory by default, answered
 * synchronously so the hooks stay promise-free; in Redis with REDIS_URL, shared by every process
 * (one round trip per request).
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitedError, type RateLimitState, type RateLimitStore } from '../services/rate-limiter';
import { API_REQUEST, ORG_RATE_LIMIT } from './auth';

/** Requests per minute per client IP for calls without a valid API key. */
export const PUBLIC_RATE_LIMIT = 1_000;

const STATE = Symbol('quire.rateLimit');
declare module 'fastify' {
  interface FastifyRequest {
    [STATE]?: RateLimitState;
  }
}

/** Counts `req` against its bucket; the state is kept on the request once known. */
function count(store: RateLimitStore, req: FastifyRequest): RateLimitState | Promise<RateLimitState> {
  const orgLimit = req[ORG_RATE_LIMIT];
  const state = req.auth && orgLimit !== undefined
    ? store.hit(`org:${req.auth.orgId}`, orgLimit)
    : store.hit(`ip:${req.ip}`, PUBLIC_RATE_LIMIT);
  if (state instanceof Promise) {
    return state.then((known) => {
      req[STATE] = known;
      return known;
    });
  }
  req[STATE] = state;
  return state;
}

function setHeaders(reply: FastifyReply, state: RateLimitState): void {
  reply.header('x-ratelimit-limit', state.limit);
  reply.header('x-ratelimit-remaining', state.remaining);
  reply.header('x-ratelimit-reset', state.reset);
}

/** Sets the headers and finishes the `onRequest` hook: 429 when the bucket is exhausted. */
function decide(reply: FastifyReply, state: RateLimitState, done: (err?: Error) => void): void {
  setHeaders(reply, state);
  done(state.exceeded ? rateLimitedError(state) : undefined);
}

/** Labels a response refused before the `onRequest` count (401/403) unless it already carries the headers. */
function label(reply: FastifyReply, state: RateLimitState): void {
  if (!reply.hasHeader('x-ratelimit-limit')) setHeaders(reply, state);
}

export default fp(
  async (app) => {
    const store = app.ctx.rateLimits;
    // Callback-style hooks with no closure per request (the in-memory store answers synchronously):
    // they run on every API call.
    app.addHook('onRequest', (req, reply, done) => {
      const counted = count(store, req);
      if (counted instanceof Promise) counted.then((state) => decide(reply, state, done), done);
      else decide(reply, counted, done);
    });
    app.addHook('onSend', (req, reply, payload, done) => {
      if (!req[API_REQUEST] || req[STATE]) return done(null, payload);
      const counted = count(store, req);
      if (!(counted instanceof Promise)) {
        label(reply, counted);
        return done(null, payload);
      }
      counted.then(
        (state) => {
          label(reply, state);
          done(null, payload);
        },
        () => done(null, payload),
      );
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
