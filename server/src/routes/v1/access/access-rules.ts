/**
 * `/v1/projects/{projectId}/access-rules` (interface-spec.md "Collaboration", Access control): path
 * globs readable only by given audiences or address ranges. Every route needs `admin`
 * (decisions.md section 2); changes are audited and apply to the sites at once.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { AccessRuleBodySchema, AccessRuleParamsSchema, AccessRulePatchSchema, AccessRuleSchema, MAX_ACCESS_RULES, PAGE_GLOB_RULES } from '@quire/shared/api/access';
import { createAccessRule, deleteAccessRule, getAccessRule, listAccessRules, updateAccessRule } from '../../../services/access-rules';

/** How rules apply, for the OpenAPI document. */
const RULE_SEMANTICS =
  'A visitor passes a rule with an audience token opening one of its `audiences` or an address in one of its `cidrs` (IPv4 or IPv6 CIDR ranges; a bare address is /32 or /128). ' +
  'Every enabled rule matching a page applies on its own (none widens another), after the IP allowlists; pages gated by frontmatter `audience` still need their token. ' +
  PAGE_GLOB_RULES;

const accessRulesRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Access control'];
  const prefix = '/projects/:projectId/access-rules';

  app.get(prefix, {
    config: { permission: 'admin' },
    schema: { tags, summary: 'List access rules', description: 'Oldest first; not paginated.', params: ProjectParamsSchema, response: { 200: z.object({ data: z.array(AccessRuleSchema) }), ...errorResponses(401, 403, 404, 429) } },
  }, async (req) => ({ data: await listAccessRules(app.ctx, req.auth, req.params.projectId) }));

  app.post(prefix, {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Add an access rule',
      description: `Body {name, pathPattern, audiences?, cidrs?, enabled?}: at least one audience or CIDR range (400 naming audiences otherwise). ${RULE_SEMANTICS} At most ${MAX_ACCESS_RULES} rules per project (409). Audited as access_rule.created.`,
      params: ProjectParamsSchema,
      body: AccessRuleBodySchema,
      response: { 201: dataEnvelope(AccessRuleSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => reply.code(201).send({ data: await createAccessRule(app.ctx, req.auth, req.params.projectId, req.body) }));

  app.get(`${prefix}/:ruleId`, {
    config: { permission: 'admin' },
    schema: { tags, summary: 'Get an access rule', description: '404 for an unknown rule or one of another project.', params: AccessRuleParamsSchema, response: { 200: dataEnvelope(AccessRuleSchema), ...errorResponses(401, 403, 404, 429) } },
  }, async (req) => ({ data: await getAccessRule(app.ctx, req.auth, req.params.projectId, req.params.ruleId) }));

  app.patch(`${prefix}/:ruleId`, {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Change an access rule',
      description: 'Only the given fields change; the rule must still name an audience or a CIDR range (400 naming audiences). `enabled: false` keeps the rule without applying it. Audited as access_rule.updated.',
      params: AccessRuleParamsSchema,
      body: AccessRulePatchSchema,
      response: { 200: dataEnvelope(AccessRuleSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await updateAccessRule(app.ctx, req.auth, req.params.projectId, req.params.ruleId, req.body) }));

  app.delete(`${prefix}/:ruleId`, {
    config: { permission: 'admin' },
    schema: { tags, summary: 'Delete an access rule', description: 'Its pages open at once (unless other rules apply). Audited as access_rule.deleted.', params: AccessRuleParamsSchema, response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404, 429) } },
  }, async (req, reply) => {
    await deleteAccessRule(app.ctx, req.auth, req.params.projectId, req.params.ruleId);
    return reply.code(204).send(null);
  });
};
export default accessRulesRoutes;
