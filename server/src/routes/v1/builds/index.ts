/**
 * /v1/projects/{projectId}/builds (interface-spec.md "Builds"; decisions.md sections 2-4):
 * trigger (202), list (newest first, `status`/`branch` filters, `{page, perPage, total,
 * totalPages}`), get (with `error`, `changedFiles`, `logUrl`), log (text/plain) and cancel (204).
 * Reads need `builds:read`, trigger and cancel `builds:write`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses, PerPagePaginationSchema } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { BuildDetailSchema, BuildParamsSchema, BuildSchema, ListBuildsFiltersSchema, TriggerBuildBodySchema } from '@quire/shared/api/builds';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { getBuild, listBuilds, toBuildDetailDto, toBuildDto, triggerBuild, TRIGGERS_PER_HOUR } from '../../../services/builds';
import { buildLogText } from '../../../builds/build-log';
import { cancelBuild } from '../../../builds/cancel-build';

const buildsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { config } = app.ctx;
  const tags = ['Builds'];

  app.post('/projects/:projectId/builds', {
    config: { permission: 'builds:write' },
    schema: {
      tags,
      summary: 'Trigger a build',
      description:
        `Queues a build (202, status queued, trigger api). Body members are all optional: branch (default the project's repoBranch), preview, commitSha (full 40 hex digits; default the branch head), force. ` +
        `Builds of another branch, preview: true, and builds triggered with a test key are previews, served at http://<branch-slug>--<slug>-docs.<sites domain>/. ` +
        `409 conflict while a build of the project is queued or building; 429 rate_limited past ${TRIGGERS_PER_HOUR} builds per project in an hour; 403 usage_limit_exceeded past the organization's monthly build limit (see GET /v1/usage). Audited as build.triggered.`,
      params: ProjectParamsSchema,
      body: TriggerBuildBodySchema.nullish(),
      response: { 202: dataEnvelope(BuildSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => {
    const row = await triggerBuild(app.ctx, req.auth, req.params.projectId, req.body ?? {});
    return reply.code(202).send({ data: toBuildDto(row) });
  });

  app.get('/projects/:projectId/builds', {
    config: { permission: 'builds:read' },
    schema: {
      tags,
      summary: 'List builds',
      description: 'Newest first. Filters: status (queued, building, deployed, failed, cancelled) and branch. Pagination: page, per_page (alias pageSize; default 20, above 100 clamped).',
      params: ProjectParamsSchema,
      querystring: PageQuerySchema.extend(ListBuildsFiltersSchema.shape),
      response: { 200: z.object({ data: z.array(BuildSchema), pagination: PerPagePaginationSchema }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await listBuilds(app.ctx, req.auth, req.params.projectId, req.query, page);
    return { data: items.map(toBuildDto), pagination: pagination(page, total, 'perPage') };
  });

  app.get('/projects/:projectId/builds/:buildId', {
    config: { permission: 'builds:read' },
    schema: {
      tags,
      summary: 'Get a build',
      description: 'The build plus error (when failed), changedFiles (from push webhooks) and logUrl.',
      params: BuildParamsSchema,
      response: { 200: dataEnvelope(BuildDetailSchema), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: toBuildDetailDto(await getBuild(app.ctx, req.auth, req.params.projectId, req.params.buildId), config) }));

  app.get('/projects/:projectId/builds/:buildId/logs', {
    config: { permission: 'builds:read' },
    schema: {
      tags,
      summary: 'Get a build log',
      description: 'text/plain: one line per step with its duration, one line per warning, and the outcome. Empty while the build is queued.',
      params: BuildParamsSchema,
      response: { 200: z.string().describe('The log, text/plain'), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    const row = await getBuild(app.ctx, req.auth, req.params.projectId, req.params.buildId);
    const text = await buildLogText(app.ctx, row.projectId, row.id);
    return reply.type('text/plain; charset=utf-8').serializer((s: string) => s).send(text);
  });

  app.delete('/projects/:projectId/builds/:buildId', {
    config: { permission: 'builds:write' },
    schema: {
      tags,
      summary: 'Cancel a build',
      description: 'A queued or building build ends with status cancelled (204; a building build is stopped before this answers, up to 15 s). 409 conflict when the build already ended (deployed, failed or cancelled). The previous deployment keeps serving.',
      params: BuildParamsSchema,
      response: { 204: z.null().describe('Cancelled'), ...errorResponses(401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => {
    await cancelBuild(app.ctx, req.auth, req.params.projectId, req.params.buildId);
    return reply.code(204).send(null);
  });
};
export default buildsRoutes;
