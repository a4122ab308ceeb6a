/**
 * `Idempotency-Key` on every POST (interface-spec.md "Conventions"; decisions.md sections 3, 10):
 * after the body is validated, a request carrying the header claims the key in its caller's scope
 * (API key id, or client IP on public routes); a retry with the same method, path and body gets the
 * original status and body with `Idempotency-Replayed: true`, and its handler does not run, so no
 * side effect (a record, a counter, an audit entry, a webhook delivery) happens twice; a different
 * request or one still running gets 409 `conflict`. Keys are 1-255 printable ASCII characters. On routes with
 * `config.oneTimeSecret` the stored (and replayed) body carries a notice instead of the secret
 * (services/idempotency.ts `withoutSecret`); a claim abandoned past its lease is taken over.
 * The routes it covers are listed on `app.idempotentRoutes`.
 */
import fp from 'fastify-plugin';
import '../http/route-config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientIp } from '../access/policy';
import { beginIdempotent, finishIdempotent, idempotencyKeyOf, idempotencyScope, purgeIdempotency, withoutSecret } from '../services/idempotency';
import type { AppContext } from '../context';

const RECORD = Symbol('quire.idempotencyRecord');
declare module 'fastify' {
  interface FastifyRequest {
    [RECORD]?: string;
  }
  interface FastifyInstance {
    /** The routes that take `Idempotency-Key`, as `POST /v1/projects/:projectId/builds`, in the order they were registered. */
    readonly idempotentRoutes: readonly string[];
  }
}

/** Whether a request with `method` to `url` (a path or route pattern) takes `Idempotency-Key`: every POST outside tRPC. */
function takesKey(method: string, url: string): boolean {
  return method === 'POST' && !url.startsWith('/trpc');
}

/**
 * Settles the `Idempotency-Key` claim of a request whose reply was hijacked (a server-sent-event
 * stream skips the `onSend` hook that would store it): `status` and `body` are what a retry with the
 * same key gets (the JSON form of the answer); a 5xx, 409 or 429 releases the key instead. Does
 * nothing for a request without a claim. @throws Error when the database fails.
 */
export async function settleHijackedIdempotency(ctx: AppContext, req: FastifyRequest, status: number, body: string): Promise<void> {
  const recordId = req[RECORD];
  if (recordId === undefined) return;
  req[RECORD] = undefined;
  await finishIdempotent(ctx, recordId, status, body);
}

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export default fp(
  async (app) => {
    const { ctx } = app;
    const purge = () => purgeIdempotency(ctx).catch((err: unknown) => ctx.log.warn({ err }, 'could not purge idempotency records'));
    const timer = setInterval(() => void purge(), PURGE_INTERVAL_MS);
    timer.unref();
    app.addHook('onReady', async () => void (await purge()));
    app.addHook('onClose', async () => clearInterval(timer));

    const routes: string[] = [];
    app.decorate('idempotentRoutes', routes);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (takesKey(method, route.url)) routes.push(`${method} ${route.url}`);
    });

    // Callback style so requests without an Idempotency-Key pass without a promise. A replay
    // answers from the hook and never calls `done`, so the handler (and every later hook) does not
    // run. Whether the reply is already "sent" cannot decide that: with an async onSend hook on the
    // route (the site CORS of the public routes) the replay is still being written when the claim resolves.
    app.addHook('preHandler', (req, reply, done) => {
      if (!takesKey(req.method, req.url)) return done();
      let key: string | undefined;
      try {
        key = idempotencyKeyOf(req.headers['idempotency-key']);
      } catch (err) {
        return done(err as Error);
      }
      if (key === undefined) return done();
      idempotentStart(req, reply, key).then((replayed) => {
        if (!replayed) done();
      }, done);
    });

    /** Claims the key (false), or replays the stored answer on `reply` (true). */
    async function idempotentStart(req: FastifyRequest, reply: FastifyReply, key: string): Promise<boolean> {
      const start = await beginIdempotent(ctx, {
        scope: idempotencyScope(req.auth?.keyId, clientIp(ctx, req.raw)),
        key,
        method: req.method,
        path: req.url,
        body: req.body,
      });
      if (start.kind === 'replay') {
        reply.code(start.status).header('idempotency-replayed', 'true').type('application/json; charset=utf-8').send(start.body);
        return true;
      }
      req[RECORD] = start.recordId;
      return false;
    }

    // Callback style: the common case (no Idempotency-Key) returns at once without a promise.
    app.addHook('onSend', (req, reply, payload, done) => {
      const recordId = req[RECORD];
      if (recordId === undefined) return done(null, payload);
      req[RECORD] = undefined;
      const sent = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : null;
      // The stored copy never holds the route's one-time secret; the client still gets it now.
      const body = sent === null ? null : withoutSecret(sent, req.routeOptions.config.oneTimeSecret);
      // A streamed (or unreadable secret-bearing) response cannot be stored: release the key so a retry runs again.
      finishIdempotent(ctx, recordId, body === null ? 500 : reply.statusCode, body ?? '').then(() => done(null, payload), done);
    });
  },
  { name: 'idempotency', dependencies: ['auth'] },
);
