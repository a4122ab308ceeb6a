/**
 * Documentation versions (interface-spec.md "Version comparison"; "Versioning > Documentation
 * versions" rule 8): `GET /projects/{projectId}/versions/diff?from=&to=`, with `builds:read`
 * (what reading builds and deployments takes).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { VersionDiffQuerySchema, VersionDiffSchema } from '@quire/shared/api/versions';
import { diffVersions } from '../../../versions/version-diff';

const versionsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/projects/:projectId/versions/diff', {
    config: { permission: 'builds:read' },
    schema: {
      tags: ['Versions'],
      summary: 'Compare two documentation versions',
      description:
        "The page inventories of two versions' live deployments (labels of versioning.versions in the live production site's docs.json; the default version is the production site) compared by page path and content hash: pages added in `to`, removed from `from`, changed (different Markdown), and the count of unchanged pages. 400 invalid_request when `from` or `to` is missing; 404 not_found for a label that is not a version or has no deployment yet.",
      params: ProjectParamsSchema,
      querystring: VersionDiffQuerySchema,
      response: { 200: dataEnvelope(VersionDiffSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await diffVersions(app.ctx, req.auth, req.params.projectId, req.query.from, req.query.to) }));
};
export default versionsRoutes;
