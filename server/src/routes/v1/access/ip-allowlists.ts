/**
 * `/v1/projects/{projectId}/ip-allowlists` (interface-spec.md "Collaboration", Access control):
 * address ranges outside which a site, or some of its paths, cannot be read. Every route needs
 * `admin` (decisions.md section 2); changes are audited and apply to the sites at once.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { IpAllowlistBodySchema, IpAllowlistParamsSchema, IpAllowlistPatchSchema, IpAllowlistSchema, MAX_ACCESS_RULES, PAGE_GLOB_RULES } from '@quire/shared/api/access';
import { createIpAllowlist, deleteIpAllowlist, getIpAllowlist, listIpAllowlists, updateIpAllowlist } from '../../../services/access-rules';

/** How allowlists apply, for the OpenAPI document. */
const ALLOWLIST_SEMANTICS =
  'An enabled allowlist refuses every visitor whose address (behind trusted proxies: QUIRE_TRUSTED_PROXIES) is outside its `cidrs` on the pages its `paths` globs match, or on the whole site when `paths` is empty. ' +
  'Every allowlist guarding a page applies on its own: put alternative ranges in one allowlist. ' +
  PAGE_GLOB_RULES;

const ipAllowlistRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Access control'];
  const prefix = '/projects/:projectId/ip-allowlists';

  app.get(prefix, {
    config: { permission: 'admin' },
    schema: { tags, summary: 'List IP allowlists', description: 'Oldest first; not paginated.', params: ProjectParamsSchema, response: { 200: z.object({ data: z.array(IpAllowlistSchema) }), ...errorResponses(401, 403, 404, 429) } },
  }, async (req) => ({ data: await listIpAllowlists(app.ctx, req.auth, req.params.projectId) }));

  app.post(prefix, {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Add an IP allowlist',
      description: `Body {name, cidrs (at least one; IPv4 or IPv6 CIDR ranges, a bare address is /32 or /128), paths? (default [] = whole site), enabled?}. ${ALLOWLIST_SEMANTICS} At most ${MAX_ACCESS_RULES} allowlists per project (409). Audited as ip_allowlist.created.`,
      params: ProjectParamsSchema,
      body: IpAllowlistBodySchema,
      response: { 201: dataEnvelope(IpAllowlistSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => reply.code(201).send({ data: await createIpAllowlist(app.ctx, req.auth, req.params.projectId, req.body) }));

  app.get(`${prefix}/:allowlistId`, {
    config: { permission: 'admin' },
    schema: { tags, summary: 'Get an IP allowlist', description: '404 for an unknown allowlist or one of another project.', params: IpAllowlistParamsSchema, response: { 200: dataEnvelope(IpAllowlistSchema), ...errorResponses(401, 403, 404, 429) } },
  }, async (req) => ({ data: await getIpAllowlist(app.ctx, req.auth, req.params.projectId, req.params.allowlistId) }));

  app.patch(`${prefix}/:allowlistId`, {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Change an IP allowlist',
      description: 'Only the given fields change (`cidrs` cannot become empty). Audited as ip_allowlist.updated.',
      params: IpAllowlistParamsSchema,
      body: IpAllowlistPatchSchema,
      response: { 200: dataEnvelope(IpAllowlistSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await updateIpAllowlist(app.ctx, req.auth, req.params.projectId, req.params.allowlistId, req.body) }));

  app.delete(`${prefix}/:allowlistId`, {
    config: { permission: 'admin' },
    schema: { tags, summary: 'Delete an IP allowlist', description: 'Audited as ip_allowlist.deleted.', params: IpAllowlistParamsSchema, response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404, 429) } },
  }, async (req, reply) => {
    await deleteIpAllowlist(app.ctx, req.auth, req.params.projectId, req.params.allowlistId);
    return reply.code(204).send(null);
  });
};
export default ipAllowlistRoutes;
