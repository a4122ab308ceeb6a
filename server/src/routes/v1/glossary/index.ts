/**
 * The glossary of a project (interface-spec.md "Collaboration", glossary; decisions.md section 9):
 * terms with a definition, synonyms to avoid and whether their case matters. The linter enforces
 * them (`glossary/<term>` findings). Reads need `projects:read`, changes `projects:write`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { GlossaryTermBodySchema, GlossaryTermDtoSchema, GlossaryTermParamsSchema, GlossaryTermPatchSchema } from '@quire/shared/api/lint';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { createGlossaryTerm, deleteGlossaryTerm, listGlossary, toGlossaryTermDto, updateGlossaryTerm } from '../../../services/style-rules';

const glossaryRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Glossary'];
  const prefix = '/projects/:projectId/glossary';

  app.get(prefix, {
    config: { permission: 'projects:read' },
    schema: { tags, summary: 'List glossary terms', description: 'By term; not paginated.', params: ProjectParamsSchema, response: { 200: z.object({ data: z.array(GlossaryTermDtoSchema) }), ...errorResponses(401, 403, 404, 429) } },
  }, async (req) => ({ data: (await listGlossary(app.ctx, req.auth, req.params.projectId)).map(toGlossaryTermDto) }));

  app.post(prefix, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Add a glossary term',
      description: 'One entry per term in a project whatever its case (409 otherwise). Audited as glossary_term.created.',
      params: ProjectParamsSchema,
      body: GlossaryTermBodySchema,
      response: { 201: dataEnvelope(GlossaryTermDtoSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => reply.code(201).send({ data: toGlossaryTermDto(await createGlossaryTerm(app.ctx, req.auth, req.params.projectId, req.body)) }));

  app.patch(`${prefix}/:termId`, {
    config: { permission: 'projects:write' },
    schema: { tags, summary: 'Update a glossary term', description: 'Only given fields change. Audited as glossary_term.updated.', params: GlossaryTermParamsSchema, body: GlossaryTermPatchSchema, response: { 200: dataEnvelope(GlossaryTermDtoSchema), ...errorResponses(400, 401, 403, 404, 409, 429) } },
  }, async (req) => ({ data: toGlossaryTermDto(await updateGlossaryTerm(app.ctx, req.auth, req.params.projectId, req.params.termId, req.body)) }));

  app.delete(`${prefix}/:termId`, {
    config: { permission: 'projects:write' },
    schema: { tags, summary: 'Delete a glossary term', description: 'Audited as glossary_term.deleted.', params: GlossaryTermParamsSchema, response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404, 429) } },
  }, async (req, reply) => {
    await deleteGlossaryTerm(app.ctx, req.auth, req.params.projectId, req.params.termId);
    return reply.code(204).send(null);
  });
};
export default glossaryRoutes;
