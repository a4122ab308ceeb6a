/**
 * `Idempotency-Key` on every POST (interface-spec.md "Conventions"; decisions.md sections 3, 10):
 * after the body is validated, a request carrying the header claims the key in its caller's scope
 * (API key id, or client IP on public routes); a retry with the same method, path and body gets the
 * original status and body with `Idempotency-Replayed: true`; a different request or one still
 * running gets 409 `conflict`. Keys are 1-255 printable ASCII characters. On routes with
 * `config.oneTimeSecret` the stored (and replayed) body carries a notice instead of the secret
 * (services/idempotency.ts `withoutSecret`); a claim abandoned past its lease is taken over.
 */
import fp from 'fastify-plugin';
import '../http/route-config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalidField } from '@quire/shared/errors';
import { beginIdempotent, finishIdempotent, purgeIdempotency, withoutSecret } from '../services/idempotency';
import type { AppContext } from '../context';

const RECORD = Symbol('quire.idempotencyRecord');
declare module 'fastify' {
  interface FastifyRequest {
    [RECORD]?: string;
  }
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

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export default fp(
  async (app) => {
    const { ctx } = app;
    const purge = () => purgeIdempotency(ctx).catch((err: unknown) => ctx.log.warn({ err }, 'could not purge idempotency records'));
    const timer = setInterval(() => void purge(), PURGE_INTERVAL_MS);
    timer.unref();
    app.addHook('onReady', async () => void (await purge()));
    app.addHook('onClose', async () => clearInterval(timer));

    // Callback style so requests without an Idempotency-Key pass without a promise; a replay
    // answers from the hook, and then (as Fastify wants for callback hooks) `done` is not called.
    app.addHook('preHandler', (req, reply, done) => {
      if (req.method !== 'POST' || req.url.startsWith('/trpc')) return done();
      const header = req.headers['idempotency-key'];
      if (header === undefined) return done();
      if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
        return done(invalidField('Idempotency-Key', 'must be 1-255 printable ASCII characters without spaces'));
      }
      idempotentStart(req, reply, header).then(() => {
        if (!reply.sent) done();
      }, done);
    });

    /** Claims the key, or replays the stored answer on `reply`. */
    async function idempotentStart(req: FastifyRequest, reply: FastifyReply, header: string): Promise<void> {
      const start = await beginIdempotent(ctx, {
        scope: req.auth?.keyId ?? `ip:${req.ip}`,
        key: header,
        method: req.method,
        path: req.url,
        body: req.body,
      });
      if (start.kind === 'replay') {
        reply.code(start.status).header('idempotency-replayed', 'true').type('application/json; charset=utf-8').send(start.body);
        return;
      }
      req[RECORD] = start.recordId;
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
