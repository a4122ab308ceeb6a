/**
 * `POST /v1/projects/{projectId}/access-check` (interface-spec.md "Collaboration", Access control;
 * decisions.md section 9): what the production site decides for a visitor, through the function the
 * site itself uses (access/decide.ts). Needs `admin` (decisions.md section 2).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { AccessCheckBodySchema, AccessCheckResultSchema } from '@quire/shared/api/access';
import { checkAccess } from '../../../access/access-check';

const accessCheckRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.post('/projects/:projectId/access-check', {
    config: { permission: 'admin' },
    schema: {
      tags: ['Access control'],
      summary: 'Check who may read a page',
      description:
        'Body {path, ip, token?}: answers {allowed, reason, rule, audiences, tokenRefusal, page} as the production site would decide now for a visitor at `ip` with that audience token: IP allowlists, then access rules, then the page gate (a page with frontmatter `audience` needs a token opening one of its tags). ' +
        '`reason` is ip_allowlist, access_rule, gated_page, invalid_token (a gated page with a token that opens nothing: see tokenRefusal) or null when allowed; `rule` names the rule or allowlist that decided. Nothing is recorded. 400 naming ip for an address that is not IPv4 or IPv6.',
      params: ProjectParamsSchema,
      body: AccessCheckBodySchema,
      response: { 200: dataEnvelope(AccessCheckResultSchema), ...errorResponses(400, 401, 403, 404, 429, 503) },
    },
  }, async (req) => ({ data: await checkAccess(app.ctx, req.auth, req.params.projectId, req.body) }));
};
export default accessCheckRoutes;
