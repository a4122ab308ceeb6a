/**
 * `GET /v1/projects/{projectId}/access-logs` (interface-spec.md "Collaboration", Access control;
 * decisions.md section 9: "`/access-logs` records denials"). Needs `admin` (decisions.md section 2).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, PaginationSchema } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { AccessLogEntrySchema, AccessLogFiltersSchema } from '@quire/shared/api/access';
import { checkHistoryRange } from '@quire/shared/api/webhooks';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { listAccessLogs } from '../../../access/access-logs';

const accessLogRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get('/projects/:projectId/access-logs', {
    config: { permission: 'admin' },
    schema: {
      tags: ['Access control'],
      summary: 'List denied site requests',
      description:
        'Newest first: each refused page request of the project\'s sites with its host, path, visitor address, reason (gated_page, invalid_token, access_rule, ip_allowlist, preview_link) and the rule, allowlist or preview link that refused. ' +
        'Filters: reason; from and to (ISO 8601 date-times, or dates covering whole UTC days; 400 naming to when it is before from). Pagination: page, pageSize (alias per_page; default 20, above 100 clamped). Denials are written within a second.',
      params: ProjectParamsSchema,
      querystring: PageQuerySchema.extend(AccessLogFiltersSchema.shape).superRefine(checkHistoryRange),
      response: { 200: z.object({ data: z.array(AccessLogEntrySchema), pagination: PaginationSchema }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await listAccessLogs(app.ctx, req.auth, req.params.projectId, req.query, page);
    return { data: items, pagination: pagination(page, total) };
  });
};
export default accessLogRoutes;
