/**
 * Idempotency records (decisions.md sections 3 and 10): a POST with `Idempotency-Key` is recorded
 * per caller scope (the API key id, or `ip:<address>` on public routes) for 24 hours. The same key
 * with the same method, path and body replays the stored response; a different request, or one
 * still running, is a 409 `conflict`. Records live in the IdempotencyRecord table so replays
 * survive restarts.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/errors';

/** How long a record is kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** What identifies the request behind a key. */
export interface IdempotentRequest {
  scope: string;
  key: string;
  method: string;
  path: string;
  body: unknown;
}

/** The outcome of {@link beginIdempotent}. */
export type IdempotencyStart =
  | { kind: 'new'; recordId: string }
  | { kind: 'replay'; status: number; body: string };

/** SHA-256 of the request body's canonical JSON. */
function bodyHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');
}

/**
 * Claims `key` for this request, or finds the stored response to replay.
 * @throws ApiError conflict when the key was used for a different request or the first one is still running.
 */
export async function beginIdempotent(ctx: AppContext, req: IdempotentRequest, now = new Date()): Promise<IdempotencyStart> {
  const { prisma } = ctx.db;
  const hash = bodyHash(req.body);
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await prisma.idempotencyRecord.findUnique({ where: { scope_key: { scope: req.scope, key: req.key } } });
    if (existing && existing.expiresAt <= now) {
      await prisma.idempotencyRecord.deleteMany({ where: { id: existing.id } });
    } else if (existing) {
      if (existing.state !== 'done' || existing.responseStatus === null) {
        throw new ApiError('conflict', 'A request with this Idempotency-Key is still being processed; retry shortly.', { field: 'Idempotency-Key', issue: 'in progress' });
      }
      if (existing.method !== req.method || existing.path !== req.path || existing.bodyHash !== hash) {
        throw new ApiError('conflict', 'This Idempotency-Key was already used for a different request.', { field: 'Idempotency-Key', issue: 'reused with a different request' });
      }
      return { kind: 'replay', status: existing.responseStatus, body: existing.responseBody ?? '' };
    }
    try {
      const record = await prisma.idempotencyRecord.create({
        data: {
          id: newId('idempotency'),
          scope: req.scope,
          key: req.key,
          method: req.method,
          path: req.path,
          bodyHash: hash,
          state: 'running',
          expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        },
      });
      return { kind: 'new', recordId: record.id };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Another request claimed the key between our read and insert: look again.
    }
  }
  throw new ApiError('conflict', 'A request with this Idempotency-Key is still being processed; retry shortly.', { field: 'Idempotency-Key', issue: 'in progress' });
}

/**
 * Stores the response of a claimed key, or releases the claim when the outcome should not be
 * replayed (server errors, 409 and 429 are transient: a retry runs the request again).
 */
export async function finishIdempotent(ctx: AppContext, recordId: string, status: number, body: string): Promise<void> {
  const { prisma } = ctx.db;
  if (status >= 500 || status === 409 || status === 429) {
    await prisma.idempotencyRecord.deleteMany({ where: { id: recordId } });
    return;
  }
  await prisma.idempotencyRecord.updateMany({ where: { id: recordId }, data: { state: 'done', responseStatus: status, responseBody: body } });
}

/** Deletes expired records; returns how many. */
export async function purgeIdempotency(ctx: AppContext, now = new Date()): Promise<number> {
  const { count } = await ctx.db.prisma.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
