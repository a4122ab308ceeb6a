/**
 * Idempotency records (decisions.md sections 3 and 10): a POST with `Idempotency-Key` is recorded
 * per caller scope (the API key id, or `ip:<address>` on public routes) for 24 hours. The same key
 * with the same method, path and body replays the stored response; a different request, or one
 * still running, is a 409 `conflict`. A claim left `running` longer than {@link IDEMPOTENCY_LEASE_MS}
 * (its process died) is abandoned and the next request with the same key takes it over. Records
 * live in the IdempotencyRecord table so replays survive restarts; they never hold a one-time
 * secret (see {@link withoutSecret}).
 */
import { createHash } from 'node:crypto';
import { ApiError, invalidField } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/errors';

/** How long a record is kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a `running` claim is honoured (ms, counted from the record's `createdAt`, which is the
 * claim time). Every idempotent POST answers in well under this; a claim older than that belongs
 * to a request whose process crashed, so a retry takes the key over instead of getting 409 for a day.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/**
 * What a replay carries in place of a one-time secret (route `config.oneTimeSecret`): the spec says
 * an API key is "returned only in the create and rotate responses; never retrievable again", so the
 * stored response keeps the shape (a string) but not the secret.
 */
export const ONE_TIME_SECRET_NOTICE =
  'Not shown again: the secret is returned only once, in the original response. Create a new one (rotate the key, issue a new token) if it was lost.';

/** A valid key: 1-255 printable ASCII characters, no spaces (decisions.md section 3). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * The `Idempotency-Key` a request sent, as its header value arrived (Node's `IncomingHttpHeaders`).
 * @returns undefined when the request sent none
 * @throws ApiError invalid_request (`details.field` `Idempotency-Key`) for a doubled header or a value that is
 *   not 1-255 printable ASCII characters without spaces.
 */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) throw invalidField('Idempotency-Key', 'must be 1-255 printable ASCII characters without spaces');
  return header;
}

/**
 * The scope of a key (decisions.md sections 3 and 10): the calling API key's id, or on a public route
 * (no key) the client's address, `ip:<address>`, as the access rules see it (access/policy.ts
 * `clientIp`: behind a trusted proxy, the visitor's, not the proxy's), so two visitors never share keys.
 */
export function idempotencyScope(keyId: string | null | undefined, clientIp: string): string {
  return keyId ?? `ip:${clientIp}`;
}

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

const inProgress = () =>
  new ApiError('conflict', 'A request with this Idempotency-Key is still being processed; retry shortly.', { field: 'Idempotency-Key', issue: 'in progress' });

/**
 * Claims `key` for this request, takes over a claim abandoned for longer than
 * {@link IDEMPOTENCY_LEASE_MS} (as if it did not exist: any request with the key may), or finds
 * the stored response to replay. The takeover is one
 * conditional UPDATE that also gives the record a new id, so of two concurrent retries exactly one
 * wins, and the abandoned request (should it still finish) can no longer store its answer.
 * @throws ApiError conflict when the key was used for a different request or the first one is still running.
 */
export async function beginIdempotent(ctx: AppContext, req: IdempotentRequest, now = new Date()): Promise<IdempotencyStart> {
  const { prisma } = ctx.db;
  const hash = bodyHash(req.body);
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await prisma.idempotencyRecord.findUnique({ where: { scope_key: { scope: req.scope, key: req.key } } });
    if (existing && existing.expiresAt <= now) {
      await prisma.idempotencyRecord.deleteMany({ where: { id: existing.id, expiresAt: { lte: now } } });
    } else if (existing) {
      const leaseEnd = new Date(now.getTime() - IDEMPOTENCY_LEASE_MS);
      if (existing.state === 'running' && existing.createdAt <= leaseEnd) {
        const recordId = newId('idempotency');
        const { count } = await prisma.idempotencyRecord.updateMany({
          where: { id: existing.id, state: 'running', createdAt: { lte: leaseEnd } },
          data: { id: recordId, method: req.method, path: req.path, bodyHash: hash, createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) },
        });
        if (count === 1) return { kind: 'new', recordId };
        continue; // Another retry took it over first: look again (it is running now).
      }
      if (existing.state !== 'done' || existing.responseStatus === null) throw inProgress();
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
          createdAt: now,
          expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        },
      });
      return { kind: 'new', recordId: record.id };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Another request claimed the key between our read and insert: look again.
    }
  }
  throw inProgress();
}

/**
 * The response body as it may be stored: when `secretField` is set (route `config.oneTimeSecret`)
 * and `data[secretField]` (or `body[secretField]` for the spec's answers without the `data`
 * envelope, such as audience tokens) is a string, that value is replaced by
 * {@link ONE_TIME_SECRET_NOTICE}, and every other string member of the same object that embeds
 * the secret (a magic link) has it replaced too; other bodies (errors, non-JSON) come back unchanged. The answer sent to the client is not affected.
 * @returns `null` when a body that should carry the secret cannot be read as JSON (then store nothing).
 */
export function withoutSecret(body: string, secretField: string | undefined): string | null {
  if (secretField === undefined) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return body;
  const data = (parsed as { data?: unknown }).data;
  // The spec answers some resources without the envelope (audience tokens): then the body holds the secret.
  const holder = (data && typeof data === 'object' ? data : parsed) as Record<string, unknown>;
  const secret = holder[secretField];
  if (typeof secret !== 'string' || secret === '') return body;
  // The secret also leaves through other members that embed it (a magic link carrying the token).
  const cleaned = Object.fromEntries(
    Object.entries(holder).map(([k, v]) => [k, k === secretField ? ONE_TIME_SECRET_NOTICE : typeof v === 'string' ? v.replaceAll(secret, '[not shown again]') : v]),
  );
  return JSON.stringify(holder === parsed ? cleaned : { ...(parsed as object), data: cleaned });
}

/**
 * Stores the response of a claimed key, or releases the claim when the outcome should not be
 * replayed (server errors, 409 and 429 are transient: a retry runs the request again). A claim
 * taken over meanwhile (see {@link beginIdempotent}) has another id and is left alone.
 */
export async function finishIdempotent(ctx: AppContext, recordId: string, status: number, body: string): Promise<void> {
  const { prisma } = ctx.db;
  if (status >= 500 || status === 409 || status === 429) {
    await prisma.idempotencyRecord.deleteMany({ where: { id: recordId, state: 'running' } });
    return;
  }
  await prisma.idempotencyRecord.updateMany({ where: { id: recordId, state: 'running' }, data: { state: 'done', responseStatus: status, responseBody: body } });
}

/** Deletes expired records; returns how many. */
export async function purgeIdempotency(ctx: AppContext, now = new Date()): Promise<number> {
  const { count } = await ctx.db.prisma.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
