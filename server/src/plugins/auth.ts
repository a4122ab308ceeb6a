/**
 * API-key authentication and route permissions (interface-spec.md "Authentication";
 * decisions.md sections 2 and 10). Runs in `onRequest`, before anything reads the body:
 * - the key comes from `Authorization: Bearer <key>` or `Api-Key: <key>`; two different keys → 401;
 *   keys in the query string are never read;
 * - missing, malformed, unknown, revoked or expired keys → 401 `unauthorized`;
 * - a route's `config.permission` not held by the key (`admin` implies all) → 403 `forbidden`;
 * - skipped for `config.public` routes, `/trpc` (own sessions), and requests matching no route
 *   (they answer 404);
 * - a client IP whose presented keys were refused {@link AUTH_FAILURE_LIMIT} times this minute
 *   gets 429 `rate_limited` with `Retry-After` for every key until the window ends (valid ones
 *   too, or the answer would still tell a guessed key from a wrong one).
 * Keys resolve from memory (`ctx.apiKeys`, services/api-key-cache.ts), never through the ORM.
 */
import type { IncomingHttpHeaders } from 'node:http';
import fp from 'fastify-plugin';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { ApiError } from '@quire/shared/errors';
import { hasPermission } from '@quire/shared/api/api-keys';
import '../http/route-config';
import type { RequestAuth } from '../access/request-auth';
import { rateLimitedError } from '../services/rate-limiter';
import type { KeyRefusal, ResolvedKey } from '../services/api-key-cache';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The single key a request presents (`Authorization: Bearer` or `Api-Key`), or null when it presents
 * none. Reads only the headers, so the raw Node request of a site endpoint works too.
 * @throws ApiError unauthorized on conflicts or malformed headers.
 */
export function presentedKey(req: { headers: IncomingHttpHeaders }): string | null {
  const authz = req.headers.authorization;
  const apiKey = req.headers['api-key'];
  let fromAuthz: string | null = null;
  if (authz !== undefined) {
    const m = BEARER.exec(authz);
    if (!m) throw new ApiError('unauthorized', 'The Authorization header must be "Bearer <API key>".');
    fromAuthz = m[1]!;
  }
  const fromHeader = typeof apiKey === 'string' ? apiKey.trim() : null;
  if (Array.isArray(apiKey)) throw new ApiError('unauthorized', 'Send one Api-Key header.');
  if (fromAuthz && fromHeader && fromAuthz !== fromHeader) {
    throw new ApiError('unauthorized', 'Two different API keys were sent (Authorization and Api-Key); send one.');
  }
  return fromAuthz || fromHeader || null;
}

/**
 * Whether requests to a route are authenticated by API key: every route but public ones
 * (`config.public`) and `/trpc` (its own sessions, trpc/session-auth.ts).
 * @param url the route's path or the request's URL (only its `/trpc` prefix matters)
 */
export function takesApiKeys(config: FastifyContextConfig, url: string): boolean {
  return !config.public && !url.startsWith('/trpc');
}

/** Refused keys allowed per client IP and minute (services/auth-failures.ts). */
export { AUTH_FAILURE_LIMIT } from '../services/auth-failures';

/** Marks requests that reached API authentication (site-host requests never do). */
export const API_REQUEST = Symbol('quire.apiRequest');
/** The authenticated key's organization rate limit (requests per minute), for the rate-limit plugin. */
export const ORG_RATE_LIMIT = Symbol('quire.orgRateLimit');

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The authenticated caller (access/request-auth.ts), set in `onRequest` (before the body is
     * read) for every API route except public ones (`config: { public: true }`), `/trpc` and the
     * OpenAPI routes. On those it is `null` at run time; handlers of authenticated routes may rely on it.
     */
    auth: RequestAuth;
    [API_REQUEST]?: boolean;
    [ORG_RATE_LIMIT]?: number;
  }
}

export default fp(
  async (app) => {
    const { apiKeys: cache, authFailures } = app.ctx;
    app.decorateRequest('auth', null as unknown as RequestAuth);
    app.addHook('onClose', async () => cache.close());

    // Synchronous work (the key cache answers from memory), so a callback hook: no promise per
    // request; only a cache miss on PostgreSQL waits for its row.
    app.addHook('onRequest', (req, _reply, done) => {
      try {
        const pending = authenticate(req);
        if (pending) pending.then(() => done(), (err: unknown) => done(err as Error));
        else done();
      } catch (err) {
        done(err as Error);
      }
    });

    /** Sets `req.auth` from the presented key, or throws 401/403 (see the module doc); a promise when the key's row must be read first. */
    function authenticate(req: FastifyRequest): Promise<void> | void {
      req[API_REQUEST] = true;
      const config = req.routeOptions.config;
      if (req.routeOptions.url === undefined || !takesApiKeys(config, req.url)) return;
      const key = presentedKey(req);
      if (!key) throw new ApiError('unauthorized', 'Send an API key as "Authorization: Bearer <key>" or "Api-Key: <key>".');
      const blocked = authFailures.check(req.ip);
      if (blocked) throw rateLimitedError(blocked, 'failed authentications');
      const resolved = key.length > 512 ? 'unknown' : cache.resolve(key);
      if (resolved instanceof Promise) return resolved.then((r) => authorize(req, r));
      return authorize(req, resolved);
    }

    /** Sets `req.auth` for a resolved key, or throws 401/403 (a refused key rejects once it is counted). */
    function authorize(req: FastifyRequest, resolved: ResolvedKey | KeyRefusal): Promise<never> | void {
      const config = req.routeOptions.config;
      if (typeof resolved === 'string') {
        const error = new ApiError('unauthorized', resolved === 'expired' ? 'The API key has expired.' : 'The API key is invalid or revoked.');
        // Counted before the answer, so the limit holds for a client that waits for each answer.
        return authFailures.record(req.ip).then(() => {
          throw error;
        });
      }
      cache.touch(resolved.keyId);
      req[ORG_RATE_LIMIT] = resolved.rateLimit;
      req.auth = {
        orgId: resolved.orgId,
        userId: resolved.userId,
        keyId: resolved.keyId,
        permissions: resolved.permissions,
        projectId: resolved.projectId,
        mode: resolved.mode,
      };
      const needed = config.permission;
      if (needed && !hasPermission(resolved.permissions, needed)) {
        throw new ApiError('forbidden', `This API key lacks the "${needed}" permission.`, { permission: needed });
      }
    }
  },
  { name: 'auth', dependencies: ['errors'] },
);
