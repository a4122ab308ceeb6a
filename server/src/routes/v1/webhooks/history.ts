/**
 * The webhook event history API (interface-spec.md "Webhook event history API": authenticated with
 * `Api-Key`, which every route accepts, or `Authorization: Bearer`): the caller's events (one per
 * event and endpoint), newest first with filters; one event with headers, payload and attempts;
 * its attempts alone ("calls"); and a manual redelivery. Reads need `admin` (decisions.md section 2),
 * redelivery `webhook:create` (which `admin` implies). Events of other organizations (or, for a project-scoped key, other projects)
 * answer 404.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses, PerPagePaginationSchema } from '@quire/shared/api/common';
import { checkHistoryRange, WebhookAttemptSchema, WebhookEventDetailSchema, WebhookEventParamsSchema, WebhookEventSchema, WebhookHistoryFiltersSchema } from '@quire/shared/api/webhooks';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { redeliverWebhookEvent } from '../../../services/webhook-delivery';
import { findWebhookEventForCaller, getWebhookEventDetail, listWebhookCalls, listWebhookHistory, toWebhookAttemptDto } from '../../../services/webhooks/history';
import { DELIVERY_DESCRIPTION } from './delivery-doc';

/** The event `{id}` names: checked for the caller before the request's input (plugins/resource-gate.ts). */
const event = { param: 'id', kind: 'webhookMessage', find: findWebhookEventForCaller } as const;

const historyRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Webhook history'];

  app.get('/webhooks/history', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'List webhook events',
      description:
        'Events delivered (or to be delivered) to the endpoints of the organization\'s projects, one per event and endpoint, newest first. ' +
        'Filters: event_type, status (pending, succeeded, failed), from and to (ISO 8601 date or date-time, inclusive, on the creation time), project_id, webhook_id. ' +
        'Pagination: page, per_page (alias pageSize; default 20, above 100 clamped); `pagination: {page, perPage, total, totalPages}`.',
      querystring: PageQuerySchema.extend(WebhookHistoryFiltersSchema.shape).superRefine(checkHistoryRange),
      response: { 200: z.object({ data: z.array(WebhookEventSchema), pagination: PerPagePaginationSchema }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await listWebhookHistory(app.ctx, req.auth, req.query, page);
    return { data: items, pagination: pagination(page, total, 'perPage') };
  });

  app.get('/webhooks/event/:id', {
    config: { permission: 'admin', resource: event },
    schema: {
      tags,
      summary: 'Get a webhook event',
      description: `The event with the headers of its latest attempt (before any attempt: the headers every attempt carries), its payload and every attempt, oldest first.\n\n${DELIVERY_DESCRIPTION}`,
      params: WebhookEventParamsSchema,
      response: { 200: dataEnvelope(WebhookEventDetailSchema), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await getWebhookEventDetail(app.ctx, req.auth, req.params.id) }));

  app.get('/webhooks/calls/:id', {
    config: { permission: 'admin', resource: event },
    schema: {
      tags,
      summary: 'List the delivery attempts of a webhook event',
      description: 'Every HTTP call made to deliver the event `{id}` (msg_...), oldest first: request headers, status, the first 4 KiB of the response, duration, error. Not paginated.',
      params: WebhookEventParamsSchema,
      response: { 200: z.object({ data: z.array(WebhookAttemptSchema) }), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await listWebhookCalls(app.ctx, req.auth, req.params.id) }));

  app.post('/webhooks/event/send/:id', {
    config: { permission: 'webhook:create', resource: event },
    schema: {
      tags,
      summary: 'Redeliver a webhook event now',
      description:
        'Makes one delivery attempt at once, whatever the event\'s status, and answers 200 with that attempt once it is made (at most 15 s): `outcome` succeeded or failed, `statusCode`, `error`. ' +
        'A success marks the event succeeded (no more automatic retries); a failure leaves its status and retry schedule as they were. The body is the stored one, signed anew. Needs webhook:create.',
      params: WebhookEventParamsSchema,
      body: z.strictObject({}).nullish().describe('No body (or {})'),
      response: { 200: dataEnvelope(WebhookAttemptSchema), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: toWebhookAttemptDto(await redeliverWebhookEvent(app.ctx, req.auth, req.params.id)) }));
};
export default historyRoutes;
