/**
 * Page ownership of a project (interface-spec.md "Collaboration": `/ownership`, `/ownership/stale`;
 * decisions.md section 9): path globs assigned to members, each published page's resolved owner,
 * and owned pages not updated for a while. Reads need `projects:read`, changes `projects:write`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses, PaginationSchema } from '@quire/shared/api/common';
import { OwnershipRuleBodySchema, OwnershipRuleDtoSchema, OwnershipRuleParamsSchema, OwnershipSchema, StaleFiltersSchema, StalePageSchema } from '@quire/shared/api/ownership';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { createOwnershipRule, deleteOwnershipRule, getOwnership, listStalePages } from '../../../services/ownership';

const ownershipRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Ownership'];
  const prefix = '/projects/:projectId/ownership';

  app.get(prefix, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'List ownership rules and page owners',
      description:
        'The rules, oldest first, and every page of the newest production deployment with its owner: the user of the LAST rule whose glob matches the page\'s repository file path (`docs/guides/setup.mdx`) or its page path (`guides/setup`), as in CODEOWNERS. Pages no rule matches have owner and rule null; before the first production deploy, pages is empty.',
      params: ProjectParamsSchema,
      response: { 200: dataEnvelope(OwnershipSchema), ...errorResponses(401, 403, 404, 429, 503) },
    },
  }, async (req) => ({ data: await getOwnership(app.ctx, req.auth, req.params.projectId) }));

  app.post(prefix, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Assign pages to an owner',
      description: 'Assigns the pages matching `pattern` (a path glob: `*` within a folder, `**` across folders) to `userId`, a member of the project\'s organization (400 naming the field otherwise). Later rules win over earlier ones. Audited as ownership.created.',
      params: ProjectParamsSchema,
      body: OwnershipRuleBodySchema,
      response: { 201: dataEnvelope(OwnershipRuleDtoSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) => reply.code(201).send({ data: await createOwnershipRule(app.ctx, req.auth, req.params.projectId, req.body) }));

  app.delete(`${prefix}/:ruleId`, {
    config: { permission: 'projects:write' },
    schema: { tags, summary: 'Delete an ownership rule', description: 'Audited as ownership.deleted.', params: OwnershipRuleParamsSchema, response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404, 429) } },
  }, async (req, reply) => {
    await deleteOwnershipRule(app.ctx, req.auth, req.params.projectId, req.params.ruleId);
    return reply.code(204).send(null);
  });

  app.get(`${prefix}/stale`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'List stale owned pages',
      description:
        'Owned pages of the newest production deployment not updated for more than `days` days (default 90), oldest first. The last update is the page\'s frontmatter `lastUpdated` when it has one (source frontmatter), else the date of the last commit changing its file (source git). Pages without a file in the repository (generated API pages) are never listed. Pagination: page, pageSize (alias per_page; default 20, above 100 clamped).',
      params: ProjectParamsSchema,
      querystring: PageQuerySchema.extend(StaleFiltersSchema.shape),
      response: { 200: z.object({ data: z.array(StalePageSchema), pagination: PaginationSchema }), ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await listStalePages(app.ctx, req.auth, req.params.projectId, { days: req.query.days }, page);
    return { data: items, pagination: pagination(page, total) };
  });
};
export default ownershipRoutes;
