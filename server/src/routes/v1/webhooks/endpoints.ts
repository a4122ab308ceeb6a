/**
 * A project's outgoing webhook endpoints (decisions.md section 8): register (201, the signing secret
 * shown once), list, delete (204). Every route needs `admin` (decisions.md section 2: outgoing webhooks
 * and their history). Audited as `webhook.created` / `webhook.deleted`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { CreatedWebhookEndpointSchema, CreateWebhookBodySchema, MAX_WEBHOOKS_PER_PROJECT, WEBHOOK_EVENT_TYPES, WebhookEndpointSchema, WebhookParamsSchema } from '@quire/shared/api/webhooks';
import { createWebhookEndpoint, deleteWebhookEndpoint, listWebhookEndpoints, toWebhookEndpointDto } from '../../../services/webhook-endpoints';
import { DELIVERY_DESCRIPTION } from './delivery-doc';

const endpointRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Webhooks'];
  const path = '/projects/:projectId/webhooks';

  app.post(path, {
    config: { permission: 'admin', oneTimeSecret: 'secret' },
    schema: {
      tags,
      summary: 'Register a webhook endpoint',
      description:
        `Registers a URL that receives the project's events (${WEBHOOK_EVENT_TYPES.join(', ')}; \`events\` omitted or [] = all). ` +
        'The URL must be http:// or https:// and reach a public address: loopback, private and link-local addresses in any form (IPv4-mapped IPv6, hex, octal, `localhost.`), and names resolving to them, give 400 with details.field "url" unless QUIRE_ALLOW_PRIVATE_NETWORK=1. ' +
        'The response carries the signing secret (`whsec_...`) this once; with Idempotency-Key a replay carries a notice in its place, never the secret. ' +
        `At most ${MAX_WEBHOOKS_PER_PROJECT} endpoints per project (409 beyond). Needs admin. Audited as webhook.created.\n\n${DELIVERY_DESCRIPTION}`,
      params: ProjectParamsSchema,
      body: CreateWebhookBodySchema,
      response: { 201: dataEnvelope(CreatedWebhookEndpointSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => reply.code(201).send({ data: await createWebhookEndpoint(app.ctx, req.auth, req.params.projectId, req.body) }));

  app.get(path, {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'List webhook endpoints',
      description: `The project's endpoints, oldest first, never their secrets. Not paginated (at most ${MAX_WEBHOOKS_PER_PROJECT}).`,
      params: ProjectParamsSchema,
      response: { 200: z.object({ data: z.array(WebhookEndpointSchema) }), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: (await listWebhookEndpoints(app.ctx, req.auth, req.params.projectId)).map(toWebhookEndpointDto) }));

  app.delete(`${path}/:webhookId`, {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Delete a webhook endpoint',
      description: 'Stops its deliveries; its events and their attempts are removed with it. 404 once gone. Needs admin. Audited as webhook.deleted.',
      params: WebhookParamsSchema,
      response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    await deleteWebhookEndpoint(app.ctx, req.auth, req.params.projectId, req.params.webhookId);
    return reply.code(204).send(null);
  });
};
export default endpointRoutes;
