/**
 * /v1/projects (interface-spec.md "Projects"; decisions.md sections 2-4): create, list, get,
 * partial update, delete. Permissions: reads `projects:read`, create/update `projects:write`,
 * delete `admin`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses, PaginationSchema } from '@quire/shared/api/common';
import { CreateProjectBodySchema, ProjectParamsSchema, ProjectSchema, UpdateProjectBodySchema } from '@quire/shared/api/projects';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { createProject, deleteProject, getProjectForCaller, listProjects, toProjectDto, updateProject } from '../../../services/projects';

const projectsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { config } = app.ctx;
  const tags = ['Projects'];

  app.post('/projects', {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Create a project',
      description: 'Slug: lowercase letters, digits and single hyphens, unique across the service; derived from name when omitted (-2, -3... on collision). 409 when the slug exists; 402 when the plan project limit is reached. Audited as project.created.',
      body: CreateProjectBodySchema,
      response: { 201: dataEnvelope(ProjectSchema), ...errorResponses(400, 401, 402, 403, 409, 429) },
    },
  }, async (req, reply) => {
    const record = await createProject(app.ctx, req.auth, req.body);
    return reply.code(201).send({ data: toProjectDto(record, config) });
  });

  app.get('/projects', {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'List projects',
      description: 'Newest first. A key scoped to one project lists only that project.',
      querystring: PageQuerySchema,
      response: { 200: z.object({ data: z.array(ProjectSchema), pagination: PaginationSchema }), ...errorResponses(400, 401, 403, 429) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await listProjects(app.ctx, req.auth, page);
    return { data: items.map((p) => toProjectDto(p, config)), pagination: pagination(page, total) };
  });

  app.get('/projects/:projectId', {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Get a project',
      params: ProjectParamsSchema,
      response: { 200: dataEnvelope(ProjectSchema), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => {
    // The resource gate (plugins/resource-gate.ts) resolved the project before the handler: one
    // lookup per request. Only an id that is not a project id (naming none) is looked up here, to answer 404.
    const project = req.project ?? (await getProjectForCaller(app.ctx, req.auth, req.params.projectId));
    return { data: app.ctx.projects.dto(project) };
  });

  app.patch('/projects/:projectId', {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Update a project',
      description: 'Only given fields change; settings are merged; null clears description, repoUrl and webhookSecret. webhookSecret is write-only (the project shows webhookSecretSet). Audited as settings.updated with metadata.changes.',
      params: ProjectParamsSchema,
      body: UpdateProjectBodySchema,
      response: { 200: dataEnvelope(ProjectSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req) => ({ data: toProjectDto(await updateProject(app.ctx, req.auth, req.params.projectId, req.body), config) }));

  app.delete('/projects/:projectId', {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Delete a project',
      description: 'Deletes the project, its builds and deployments; the site goes offline. Audited as project.deleted.',
      params: ProjectParamsSchema,
      response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    await deleteProject(app.ctx, req.auth, req.params.projectId);
    return reply.code(204).send(null);
  });
};
export default projectsRoutes;
