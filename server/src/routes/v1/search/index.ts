/**
 * Search (interface-spec.md "Search", "Reindex job"; decisions.md section 7; permissions per
 * decisions.md section 2: the query `search:read`, reindex `projects:write`, reading a reindex job
 * `projects:read`).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { ReindexBodySchema, ReindexJobParamsSchema, ReindexJobSchema, SearchQueryParamsSchema, SearchResponseSchema } from '@quire/shared/api/search';
import { apiReader, API_TOKEN_HEADER } from '../../../search/api-reader';
import { getReindexJob, requestReindex } from '../../../search/reindex-jobs';
import { runSearch } from '../../../search/search-service';
import { searchTarget } from '../../../search/search-target';
import { magicLinkBase } from '../../../services/audiences';
import { getProjectForCaller } from '../../../services/projects';

const searchRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Search'];

  app.get('/projects/:projectId/search', {
    config: { permission: 'search:read' },
    schema: {
      tags,
      summary: 'Search the documentation',
      description:
        'Full-text search of the published site, one hit per section (the page introduction or a heading), best first: title over heading over body, prefixes and small typos tolerated. ' +
        '`q` 1-200 characters (required; blank gives 400), `limit` 1-50 (default 10; outside gives 400). `version` picks the documentation version: absent or the default version\'s label searches the production site, another label the live deployment of that version (its URLs carry `/<label>`); a label that is not a version of the project gives 404 not_found. ' +
        '`url` is the absolute site URL of the page (the custom domain when one is set) with `#<anchor>` of the section; `snippet` is HTML-escaped with the matched words in `<mark>`. ' +
        'Who sees what: an API key belongs to the project\'s own integrators and sees every indexed page, gated ones included. Send an audience token in the `x-audience-token` header to search as that token\'s reader: gated pages appear only when the token\'s profile opens one of their tags (a token that does not verify opens none). Hidden pages are never indexed. ' +
        'A search finding nothing is counted as a content gap (source `search`). Before the first deploy the answer is `{data: []}`.',
      params: ProjectParamsSchema,
      querystring: SearchQueryParamsSchema,
      response: { 200: SearchResponseSchema, ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const { projectId } = req.params;
    const project = await getProjectForCaller(app.ctx, req.auth, projectId);
    const target = await searchTarget(app.ctx, projectId, req.query.version);
    const canRead = await apiReader(app.ctx, projectId, req.headers[API_TOKEN_HEADER]);
    const data = await runSearch(app.ctx, target, { projectId, q: req.query.q, limit: req.query.limit, canRead, siteRoot: magicLinkBase(app.ctx.config, project), source: 'api', ...(req.query.language !== undefined ? { language: req.query.language } : {}) });
    return { data };
  });

  app.post('/projects/:projectId/search/reindex', {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Reindex the search',
      description:
        'Rebuilds the search index of the production site and of every live version from their deployed pages: `full: true` extracts every page again, `full: false` (default) only pages whose content hash changed since the index was written. Answers 202 with the job (status `queued`); follow it with `GET .../search/reindex/{jobId}`. ' +
        'Search keeps answering from the current index until the new one is complete, then switches to it in one step. A job interrupted by a server restart is taken again. ' +
        '409 conflict while another reindex of the project is queued or processing (checked atomically across server processes); 404 not_found for an unknown project.',
      params: ProjectParamsSchema,
      body: ReindexBodySchema.nullish(),
      response: { 202: dataEnvelope(ReindexJobSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => reply.code(202).send({ data: await requestReindex(app.ctx, req.auth, req.params.projectId, req.body ?? { full: false }) }));

  app.get('/projects/:projectId/search/reindex/:jobId', {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Get a reindex job',
      description: 'The job: `status` queued, processing, completed (with `pagesIndexed`: pages indexed over the production site and every live version) or failed (with `error`; the previous index keeps answering). `startedAt` is when the reindex was requested. 404 not_found for an unknown project or job.',
      params: ReindexJobParamsSchema,
      response: { 200: dataEnvelope(ReindexJobSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await getReindexJob(app.ctx, req.auth, req.params.projectId, req.params.jobId) }));
};
export default searchRoutes;
