/**
 * REST shapes of outgoing webhooks (decisions.md section 8; interface-spec.md "Webhook event history
 * API", whose query names and response shapes the spec leaves open): endpoints a project registers
 * (`/v1/projects/{projectId}/webhooks`), the events delivered to them, and the history API
 * (`/v1/webhooks/history`, `/event/{id}`, `/calls/{id}`, `/event/send/{id}`) showing every event
 * ("message": one event for one endpoint) and every HTTP call made to deliver it ("attempt").
 * Deliveries follow the Standard Webhooks specification (https://www.standardwebhooks.com/):
 * body `{type, timestamp, data}`, headers `webhook-id`, `webhook-timestamp`, `webhook-signature`.
 */
import { z } from 'zod';
import { TimestampSchema } from './common';

/** decisions.md section 8: every event type a customer endpoint can receive. */
export const WEBHOOK_EVENT_TYPES = [
  'build.queued',
  'build.deployed',
  'build.failed',
  'build.cancelled',
  'reindex.completed',
  'review.updated',
  'approval.updated',
] as const;
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
/** One event type, e.g. `build.deployed`. */
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/** Where an event's delivery stands: `pending` (to be tried, or being retried), `succeeded` (a 2xx answer), `failed` (every retry used up). */
export const WEBHOOK_EVENT_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const WebhookEventStatusSchema = z.enum(WEBHOOK_EVENT_STATUSES);
export type WebhookEventStatus = z.infer<typeof WebhookEventStatusSchema>;

/** Endpoints one project may register. */
export const MAX_WEBHOOKS_PER_PROJECT = 20;
/**
 * An endpoint URL. The rule (http:// or https://, no credentials, at most 2,048 characters, no
 * private, loopback or link-local host in any literal form unless QUIRE_ALLOW_PRIVATE_NETWORK=1)
 * is `@quire/shared/net/outbound-url`, applied with name resolution by the server
 * (server/src/net/outbound.ts) when the endpoint is registered and on every delivery.
 */
export const WebhookUrlSchema = z.string().describe('Where events are POSTed: an absolute http:// or https:// URL reaching a public address');

/** Body of `POST /v1/projects/{projectId}/webhooks`. */
export const CreateWebhookBodySchema = z.strictObject({
  url: WebhookUrlSchema,
  description: z.string().trim().max(500).optional().describe('What the endpoint is for (shown in lists)'),
  events: z
    .array(WebhookEventTypeSchema)
    .max(WEBHOOK_EVENT_TYPES.length)
    .transform((types) => [...new Set(types)])
    .optional()
    .describe(`Event types the endpoint receives; omitted or [] = every type (${WEBHOOK_EVENT_TYPES.join(', ')})`),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBodySchema>;

/** An endpoint as listed (never its signing secret). */
export const WebhookEndpointSchema = z.object({
  id: z.string().describe('whk_<id>'),
  projectId: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(WebhookEventTypeSchema).describe('Event types it receives; [] = every type'),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** The create response: the endpoint plus its signing secret, shown this once. */
export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({
  secret: z
    .string()
    .describe('Signing secret in the Standard Webhooks format, `whsec_` + base64 of 24 random bytes; returned only in this response, never retrievable again'),
});
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpointSchema>;

/** Path parameters of one endpoint. */
export const WebhookParamsSchema = z.object({ projectId: z.string().min(1).max(100), webhookId: z.string().min(1).max(100).describe('whk_<id>') });

/** Path parameter of the history API's event routes: the event's id. */
export const WebhookEventParamsSchema = z.object({ id: z.string().min(1).max(100).describe('msg_<id> of the event') });

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * A bound of a date range as a Date: an ISO 8601 date-time with offset, or a date (`2025-01-31`,
 * UTC) standing for the start of that day (`edge: "start"`) or its last millisecond (`edge: "end"`),
 * so `from=2025-01-01&to=2025-01-31` covers all of January.
 */
function dateBound(edge: 'start' | 'end') {
  return z
    .union([z.iso.datetime({ offset: true }), z.iso.date()])
    .transform((s) => (DATE_ONLY.test(s) && edge === 'end' ? new Date(Date.parse(s) + DAY_MS - 1) : new Date(s)));
}

/** Filters of `GET /v1/webhooks/history` (pagination `page`/`per_page` comes from the server's list schema; check the range with {@link checkHistoryRange}). */
export const WebhookHistoryFiltersSchema = z.object({
  event_type: WebhookEventTypeSchema.optional().describe('Only events of this type'),
  status: WebhookEventStatusSchema.optional().describe('Only events whose delivery is pending, succeeded or failed'),
  from: dateBound('start').optional().describe('Only events created at or after this ISO 8601 date-time, or from the start of this date (UTC)'),
  to: dateBound('end').optional().describe('Only events created at or before this ISO 8601 date-time, or up to the end of this date (UTC)'),
  project_id: z.string().min(1).max(100).optional().describe('Only events of this project (404 when the caller cannot see it)'),
  webhook_id: z.string().min(1).max(100).optional().describe('Only events for this endpoint (whk_<id>)'),
});

/** zod refinement of a history query: `to` must not be before `from` (issue on `to`). */
export function checkHistoryRange(query: { from?: Date; to?: Date }, ctx: z.RefinementCtx): void {
  if (query.from && query.to && query.from.getTime() > query.to.getTime()) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
}
export type WebhookHistoryFilters = z.infer<typeof WebhookHistoryFiltersSchema>;

/** An event as listed by the history API. */
export const WebhookEventSchema = z.object({
  id: z.string().describe('msg_<id>: also the `webhook-id` header of every delivery attempt (receivers deduplicate on it)'),
  type: WebhookEventTypeSchema,
  projectId: z.string(),
  webhookId: z.string().describe('The endpoint (whk_<id>)'),
  url: z.string().describe("The endpoint's URL"),
  status: WebhookEventStatusSchema,
  attemptCount: z.number().int().min(0).describe('HTTP calls made so far (automatic and manual)'),
  nextAttemptAt: TimestampSchema.nullable().describe('When the next automatic attempt is due (pending events only)'),
  lastStatusCode: z.number().int().nullable().describe('The HTTP status of the latest call; null before any answer'),
  createdAt: TimestampSchema,
  deliveredAt: TimestampSchema.nullable().describe('When a call first got a 2xx answer'),
});
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

/** One HTTP call made to deliver an event. */
export const WebhookAttemptSchema = z.object({
  id: z.string().describe('att_<id>'),
  eventId: z.string().describe('msg_<id>'),
  attempt: z.number().int().min(1).describe('1, 2, ... in the order made'),
  trigger: z.enum(['automatic', 'manual']).describe('automatic (first try and retries) or manual (POST /v1/webhooks/event/send/{id})'),
  url: z.string(),
  requestHeaders: z.record(z.string(), z.string()).describe('Headers sent, signature included'),
  statusCode: z.number().int().nullable().describe('HTTP status answered; null when no answer came (refused address, timeout, connection error)'),
  outcome: z.enum(['succeeded', 'failed']).describe('succeeded on a 2xx answer'),
  error: z.string().nullable().describe('Why it failed, in words'),
  responseBody: z.string().nullable().describe('The first 4 KiB of the response body'),
  durationMs: z.number().int().min(0),
  createdAt: TimestampSchema,
});
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

/** The body POSTed to an endpoint (Standard Webhooks convention). */
export const WebhookPayloadSchema = z.object({
  type: WebhookEventTypeSchema,
  timestamp: TimestampSchema.describe('When the event happened'),
  data: z
    .record(z.string(), z.unknown())
    .describe('The build, review or approval as the API shows it (GET .../builds/{id}, .../reviews/{id}, .../approvals/{id}), plus projectId'),
});
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;

/** `GET /v1/webhooks/event/{id}`: the event with the headers of its delivery, its payload and every attempt. */
export const WebhookEventDetailSchema = WebhookEventSchema.extend({
  headers: z
    .record(z.string(), z.string())
    .describe('Headers of the latest attempt (signature included); before any attempt, the headers every attempt carries (without timestamp and signature)'),
  payload: WebhookPayloadSchema,
  attempts: z.array(WebhookAttemptSchema).describe('Every attempt (HTTP call), oldest first'),
});
export type WebhookEventDetail = z.infer<typeof WebhookEventDetailSchema>;
