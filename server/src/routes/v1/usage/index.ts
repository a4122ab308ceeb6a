/**
 * `GET /v1/usage` (decisions.md section 2): this calendar month's use and limit of every metered
 * metric for the caller's organization. Any valid key may read it (no permission needed).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@quire/shared/api/common';
import { UsageResponseSchema } from '@quire/shared/api/usage';
import { getUsage } from '../../../services/usage';

const usageRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get('/usage', {
    schema: {
      tags: ['Usage'],
      summary: 'Monthly usage of the organization',
      description:
        'Use and limit of each metered metric (builds; assistant_answers) for the calendar month in UTC, for the organization of the calling key. ' +
        'Free: 100 builds and 200 assistant answers a month; pro: 2,000 and 10,000; enterprise: configured. ' +
        'A metered action past its limit answers 403 usage_limit_exceeded with details {metric, limit, used, resetsAt} and changes nothing.',
      response: { 200: UsageResponseSchema, ...errorResponses(401, 429) },
    },
  }, async (req) => ({ data: await getUsage(app.ctx, req.auth.orgId) }));
};
export default usageRoutes;
