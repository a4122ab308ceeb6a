/**
 * Delivering outgoing webhook events (decisions.md section 8) to their endpoints, following the
 * Standard Webhooks specification (https://www.standardwebhooks.com/):
 *
 * - Each attempt POSTs the event's stored body (`{type, timestamp, data}`, the same bytes every
 *   time) with `content-type: application/json`, `user-agent: Quire-Webhooks/1.0` (webhooks/delivery-headers.ts), `webhook-id`
 *   (the event id `msg_...`, the same on every attempt, so receivers deduplicate on it),
 *   `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature` (`v1,<base64
 *   HMAC-SHA256 of "<id>.<timestamp>.<body>">` with the endpoint's secret), made by the
 *   `standardwebhooks` library. It goes through the outbound address policy (net/outbound.ts:
 *   only public addresses unless QUIRE_ALLOW_PRIVATE_NETWORK=1, redirects never followed) and
 *   waits at most {@link DELIVERY_TIMEOUT_MS}.
 * - A 2xx answer is success. Anything else (another status, a refused address, a timeout, a
 *   connection error) is retried after the delays of {@link RETRY_DELAYS_MS} (about 28 hours in
 *   all); when they are used up the event is `failed`.
 * - Every attempt is recorded (`WebhookAttempt`): request headers, status, the first 4 KiB of the
 *   response, duration, error.
 * - Automatic attempts run as `webhook` jobs (queue/job-queue.ts) with the job id
 *   {@link deliveryJobId} `<event id>-<attempt>`; the database decides which attempt is due:
 *   a job claims its attempt with one conditional update (`attempts` n-1 → n, `nextAttemptAt`
 *   moved {@link CLAIM_MS} ahead), so an attempt is made once however many processes hold its job,
 *   and an attempt whose process died is made again by the next after the claim lapses
 *   (jobs/webhook-plugin.ts sweeps pending events from the database).
 * - `attempts` on the stored event counts automatic attempts (the retry schedule's position);
 *   manual redeliveries ({@link redeliverWebhookEvent}) are recorded as attempts but leave the
 *   schedule alone; one that succeeds ends the event as `succeeded`.
 */
import { Webhook } from 'standardwebhooks';
import { ApiError } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import type { RequestAuth } from '../access/request-auth';
import type { JobInfo, JobKinds, JobResult } from '../queue/job-queue';
import { sendOutbound } from '../net/outbound';
import { OutboundNetworkError, OutboundRefusedError } from '../net/errors';
import { SecretBoxError } from '../git/secret-box';
import { openWebhookSecret, outboundPolicy } from './webhook-endpoints';
import { baseDeliveryHeaders } from './webhooks/delivery-headers';
import { findWebhookEventForCaller } from './webhooks/history';

/**
 * Delays before each automatic retry, in ms: after the first attempt fails, 5 s, then 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h (the schedule Standard Webhooks senders commonly use), so eight
 * attempts over about 28 hours; a failure after the last one marks the event `failed`.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
/** Longest wait for an endpoint's answer, in ms. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** How long a claimed automatic attempt may take before another process may make it again, in ms (well above {@link DELIVERY_TIMEOUT_MS}). */
export const CLAIM_MS = 60_000;

/** How automatic attempts are spaced (jobs/webhook-plugin.ts passes it; tests shorten it). */
export interface DeliverySchedule {
  /** Delays before each retry, in ms (default {@link RETRY_DELAYS_MS}); attempts = 1 + its length. */
  retryDelaysMs: readonly number[];
}

type MessageRow = Models.WebhookMessageModel;
type EndpointRow = Models.WebhookEndpointModel;
type AttemptRow = Models.WebhookAttemptModel;

/** The job id of automatic attempt `attempt` (1-based) of an event: `<event id>-<attempt>` (BullMQ refuses `:` in custom ids). */
export function deliveryJobId(messageId: string, attempt: number): string {
  return `${messageId}-${attempt}`;
}

/**
 * Queues the next automatic attempt of a pending event (attempt `attempts + 1`) to run in `delayMs`
 * (deduplicated by its job id). Errors are logged: the plugin's sweep queues due events from the
 * database anyway.
 */
export async function enqueueDelivery(ctx: AppContext, message: Pick<MessageRow, 'id' | 'projectId' | 'attempts'>, delayMs: number): Promise<void> {
  await ctx.jobs
    .enqueue('webhook', { messageId: message.id, projectId: message.projectId }, { jobId: deliveryJobId(message.id, message.attempts + 1), delayMs: Math.max(0, Math.round(delayMs)) })
    .catch((err: unknown) => ctx.log.error({ err, messageId: message.id }, 'queuing a webhook delivery failed; the delivery sweep will pick it up'));
}

/**
 * Queues the automatic attempt of every pending event due within `horizonMs` from now (oldest
 * due first, at most `limit`), each delayed until its `nextAttemptAt`. Used on start (pending
 * deliveries survive a restart: in-process delayed jobs die with their process) and periodically
 * (attempts whose process died, enqueues that failed).
 * @returns how many were queued.
 */
export async function enqueueDueDeliveries(ctx: AppContext, horizonMs: number, limit = 1_000): Promise<number> {
  const now = Date.now();
  const due = await ctx.db.prisma.webhookMessage.findMany({
    where: { status: 'pending', nextAttemptAt: { lte: new Date(now + horizonMs) } },
    orderBy: [{ nextAttemptAt: 'asc' }, { id: 'asc' }],
    take: limit,
    select: { id: true, projectId: true, attempts: true, nextAttemptAt: true },
  });
  for (const row of due) await enqueueDelivery(ctx, row, (row.nextAttemptAt?.getTime() ?? now) - now);
  return due.length;
}

/**
 * The `webhook` job: makes automatic attempt n of the event (n from the job id, see
 * {@link deliveryJobId}) if it is still the one due: the event is pending, n-1 attempts were made,
 * and its time has come (else the job waits again). The attempt is claimed first (see the module
 * comment); its outcome is recorded, and a failure queues attempt n+1 after its delay or, with the
 * schedule used up, marks the event `failed`.
 */
export async function runDeliveryJob(ctx: AppContext, payload: JobKinds['webhook'], job: JobInfo, schedule: DeliverySchedule): Promise<JobResult> {
  const prisma = ctx.db.prisma;
  const message = await prisma.webhookMessage.findUnique({ where: { id: payload.messageId }, include: { endpoint: true } });
  if (!message || message.status !== 'pending') return;
  const n = attemptOfJob(job.id, message);
  if (n !== message.attempts + 1) return; // a stale job: another one holds the attempt due
  const now = Date.now();
  const due = message.nextAttemptAt?.getTime() ?? now;
  if (due > now) return { retryInMs: due - now };
  const { count } = await prisma.webhookMessage.updateMany({
    where: { id: message.id, status: 'pending', attempts: n - 1, nextAttemptAt: message.nextAttemptAt },
    data: { attempts: n, nextAttemptAt: new Date(now + CLAIM_MS) },
  });
  if (count !== 1) return; // another process claimed it
  const result = await callEndpoint(ctx, message, message.endpoint);
  const retryIn = schedule.retryDelaysMs[n - 1];
  const retryAt = result.outcome === 'failed' && retryIn !== undefined ? new Date(Date.now() + retryIn) : null;
  const recorded = await recordAttempt(ctx, message, result, { trigger: 'automatic', attempt: n, retryAt });
  if (!recorded) return; // the endpoint was deleted meanwhile
  if (retryAt) await enqueueDelivery(ctx, { ...message, attempts: n }, retryAt.getTime() - Date.now());
}

/** The automatic attempt a job id names (`<event id>-<n>`); a job of another form stands for the next one. */
function attemptOfJob(jobId: string, message: Pick<MessageRow, 'id' | 'attempts'>): number {
  const prefix = `${message.id}-`;
  const n = jobId.startsWith(prefix) ? Number(jobId.slice(prefix.length)) : NaN;
  return Number.isInteger(n) && n > 0 ? n : message.attempts + 1;
}

/**
 * Redelivers an event now (`POST /v1/webhooks/event/send/{id}`), whatever its status: one call,
 * recorded as a `manual` attempt and answered with it. Success ends the event as `succeeded` (no
 * more automatic retries); a failure leaves its status and retry schedule as they were.
 * @throws ApiError not_found when the event is not the caller's (another organization, or a
 *   project a project-scoped key does not cover).
 */
export async function redeliverWebhookEvent(ctx: AppContext, auth: RequestAuth, messageId: string): Promise<AttemptRow> {
  const message = await findWebhookEventForCaller(ctx, auth, messageId);
  const gone = () => new ApiError('not_found', `No webhook event ${messageId}: its endpoint was deleted.`);
  const endpoint = await ctx.db.prisma.webhookEndpoint.findUnique({ where: { id: message.endpointId } });
  if (!endpoint) throw gone();
  const result = await callEndpoint(ctx, message, endpoint);
  const recorded = await recordAttempt(ctx, message, result, { trigger: 'manual', attempt: null, retryAt: null });
  if (!recorded) throw gone();
  return recorded;
}

/** What one call came to. */
interface CallResult {
  url: string;
  requestHeaders: Record<string, string>;
  statusCode: number | null;
  outcome: 'succeeded' | 'failed';
  error: string | null;
  responseBody: string | null;
  durationMs: number;
}

/**
 * Signs and sends the event once. Every failure of the delivery (refused address, no answer, non-2xx,
 * an unopenable secret) becomes a failed result; only an unexpected error (the key file unreadable) is thrown.
 */
async function callEndpoint(ctx: AppContext, message: MessageRow, endpoint: EndpointRow): Promise<CallResult> {
  const started = performance.now();
  const sentAt = new Date();
  const requestHeaders = baseDeliveryHeaders(message.id);
  const failed = (error: string, statusCode: number | null = null, responseBody: string | null = null): CallResult => ({
    url: endpoint.url,
    requestHeaders,
    statusCode,
    outcome: 'failed',
    error,
    responseBody,
    durationMs: Math.round(performance.now() - started),
  });
  let secret: string;
  try {
    secret = openWebhookSecret(ctx, endpoint);
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    return failed("The endpoint's signing secret cannot be decrypted with this installation's secret key (QUIRE_SECRET_KEY or <data dir>/secret-key); delete the endpoint and register it again.");
  }
  requestHeaders['webhook-timestamp'] = String(Math.floor(sentAt.getTime() / 1000));
  requestHeaders['webhook-signature'] = new Webhook(secret).sign(message.id, sentAt, message.payload);
  try {
    const response = await sendOutbound(
      { url: endpoint.url, method: 'POST', headers: requestHeaders, body: message.payload, timeoutMs: DELIVERY_TIMEOUT_MS },
      outboundPolicy(ctx),
    );
    const responseBody = response.body; // the first 4 KiB (net/outbound.ts)
    if (response.statusCode >= 200 && response.statusCode < 300) {
      return { url: endpoint.url, requestHeaders, statusCode: response.statusCode, outcome: 'succeeded', error: null, responseBody, durationMs: Math.round(performance.now() - started) };
    }
    return failed(`The endpoint answered HTTP ${response.statusCode}; only a 2xx status counts as delivered.`, response.statusCode, responseBody);
  } catch (err) {
    if (err instanceof OutboundRefusedError || err instanceof OutboundNetworkError) return failed(err.message);
    ctx.log.error({ err, messageId: message.id }, 'webhook delivery failed unexpectedly');
    return failed('The delivery failed because of an internal error.');
  }
}

/**
 * Stores one attempt and what it changes on its event, in one transaction: success → `succeeded`
 * (the first time: `deliveredAt`); an automatic failure → the next attempt's time (`retryAt`) or,
 * with none left, `failed`; always the latest status code. A finished event is never moved back.
 * @returns the attempt, or null when the event is gone (its endpoint was deleted during the call).
 */
async function recordAttempt(
  ctx: AppContext,
  message: Pick<MessageRow, 'id'>,
  result: CallResult,
  how: { trigger: 'automatic' | 'manual'; attempt: number | null; retryAt: Date | null },
): Promise<AttemptRow | null> {
  const now = new Date();
  return ctx.db.prisma.$transaction(async (tx) => {
    if (!(await tx.webhookMessage.findUnique({ where: { id: message.id }, select: { id: true } }))) return null;
    const made = await tx.webhookAttempt.count({ where: { messageId: message.id } });
    const row = await tx.webhookAttempt.create({
      data: {
        id: newId('webhookAttempt'),
        messageId: message.id,
        attempt: made + 1,
        trigger: how.trigger,
        url: result.url,
        requestHeaders: JSON.stringify(result.requestHeaders),
        statusCode: result.statusCode,
        outcome: result.outcome,
        error: result.error,
        responseBody: result.responseBody,
        durationMs: result.durationMs,
        createdAt: now,
      },
    });
    await tx.webhookMessage.update({ where: { id: message.id }, data: { lastStatusCode: result.statusCode } });
    if (result.outcome === 'succeeded') {
      await tx.webhookMessage.updateMany({ where: { id: message.id, status: { not: 'succeeded' } }, data: { status: 'succeeded', deliveredAt: now, nextAttemptAt: null } });
    } else if (how.trigger === 'automatic') {
      await tx.webhookMessage.updateMany({
        where: { id: message.id, status: 'pending', attempts: how.attempt ?? undefined },
        data: how.retryAt ? { nextAttemptAt: how.retryAt } : { status: 'failed', nextAttemptAt: null },
      });
    }
    return row;
  });
}
