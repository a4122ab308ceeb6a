/**
 * API keys (interface-spec.md "API keys"; decisions.md section 2): list, create, delete, rotate.
 * Every route needs `admin`. Create and rotate return the secret once (`config.oneTimeSecret`).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { ApiKeySchema, CreateApiKeyBodySchema, CreatedApiKeySchema, RotatedApiKeySchema, SCOPE_PERMISSIONS } from '@quire/shared/api/api-keys';
import { createApiKeyForCaller, findApiKeyForCaller, listApiKeys, revokeApiKey, rotateApiKey } from '../../../services/api-keys';
import { ONE_TIME_SECRET_NOTICE } from '../../../services/idempotency';

/** What `config.oneTimeSecret` means for an Idempotency-Key replay, written into the OpenAPI document. */
const REPLAY_NOTE = `With Idempotency-Key, a replay answers the same status and body except \`key\`, which holds the notice "${ONE_TIME_SECRET_NOTICE}": the secret is never stored, so it is shown only once.`;
const REPLAY_RESPONSE = '`key` is the full secret; in a replay (Idempotency-Replayed: true) it is a notice instead, never the secret.';

const KeyParamsSchema = z.object({ keyId: z.string().min(1).max(64) });
const RotateParamsSchema = z.object({ projectId: z.string().min(1).max(64), keyId: z.string().min(1).max(64) });

const apiKeysRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['API keys'];

  app.get('/api-keys', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'List API keys',
      description: 'Active keys of the organization (a project-scoped caller sees its project\'s keys), oldest first; never the secret. Not paginated. last_used_at is current to the request.',
      response: { 200: z.object({ data: z.array(ApiKeySchema) }), ...errorResponses(401, 403, 429) },
    },
  }, async (req) => ({ data: await listApiKeys(app.ctx, req.auth) }));

  app.post('/api-keys', {
    config: { permission: 'admin', oneTimeSecret: 'key' },
    schema: {
      tags,
      summary: 'Create an API key',
      description: `Give permissions or scope. The full key is in this response only. ${REPLAY_NOTE} Audited as api_key.created.`,
      body: CreateApiKeyBodySchema,
      response: { 201: dataEnvelope(CreatedApiKeySchema).describe(`The new key. ${REPLAY_RESPONSE}`), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    const body = req.body;
    const permissions = body.permissions ?? [...SCOPE_PERMISSIONS[body.scope!]];
    const created = await createApiKeyForCaller(app.ctx, req.auth, {
      name: body.name,
      permissions,
      ...(body.projectId ? { projectId: body.projectId } : {}),
      expiresIn: body.expiresIn,
      mode: body.mode,
    });
    return reply.code(201).send({ data: created });
  });

  app.delete('/api-keys/:keyId', {
    config: { permission: 'admin', resource: { param: 'keyId', kind: 'apiKey', find: findApiKeyForCaller } },
    schema: {
      tags,
      summary: 'Revoke an API key',
      description: 'The key stops working at once. 404 for unknown, other-organization or already revoked keys. Audited as api_key.revoked.',
      params: KeyParamsSchema,
      response: { 204: z.null().describe('Revoked'), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    await revokeApiKey(app.ctx, req.auth, req.params.keyId);
    return reply.code(204).send(null);
  });

  app.post('/projects/:projectId/api-keys/:keyId/rotate', {
    config: { permission: 'admin', oneTimeSecret: 'key' },
    schema: {
      tags,
      summary: 'Rotate an API key',
      description: `Atomically revokes the key and issues a new one with the same name, permissions, scope and expiry; the old key is refused as soon as this returns. Finds keys scoped to this project or organization-wide; 404 when the key does not exist, belongs to another project, or is revoked or expired. Audited as api_key.rotated. ${REPLAY_NOTE}`,
      params: RotateParamsSchema,
      response: { 201: dataEnvelope(RotatedApiKeySchema).describe(`The new key. ${REPLAY_RESPONSE}`), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    const rotated = await rotateApiKey(app.ctx, req.auth, req.params.projectId, req.params.keyId);
    return reply.code(201).send({ data: rotated });
  });
};
export default apiKeysRoutes;
