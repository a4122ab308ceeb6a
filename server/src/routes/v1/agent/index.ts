/**
 * Docs agent runs (decisions.md section 11, "Docs agent"): `POST /projects/{projectId}/agent/runs`
 * (202 `{data: run}`) and `GET /projects/{projectId}/agent/runs/{runId}`. Starting a run needs
 * `projects:write`, reading one `projects:read` (services/agent-runs.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { AgentRunParamsSchema, AgentRunSchema, CreateAgentRunBodySchema } from '@quire/shared/api/agent-runs';
import { createAgentRun, getAgentRun } from '../../../services/agent-runs';

const agentRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Docs agent'];
  const prefix = '/projects/:projectId/agent/runs';

  app.post(prefix, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Start a docs agent run',
      description:
        "Compares baseRef and headRef (branch names or full commit ids) of repoUrl, one of the project's settings.sourceRepos, and opens a review of the docs labelled \"agent\": " +
        'the OpenAPI files listed there are diffed (operations, parameters, request and response fields added, removed, changed, renamed); the new spec is written over the docs repository\'s copy (the same path, or docsPath) so generated API pages update; ' +
        'new operations get stub pages in the navigation group of their tag; lines of hand-written pages mentioning a changed name get a review comment (with QUIRE_LLM_URL set, a drafted suggestion); ' +
        'code changes under a glob of globs list the pages it maps to. The pages\' owners are the reviewers. A run never merges. ' +
        'One run per (repository, head commit): asking again for a head commit already run answers that run (202) and opens nothing new. ' +
        'Push and pull_request deliveries from a listed repository start runs too. 400 when repoUrl is not listed; 429 when a new run would pass the plan\'s agent rate (a twentieth of its request rate per minute; a run found again does not count). Audited as agent_run.created.',
      params: ProjectParamsSchema,
      body: CreateAgentRunBodySchema,
      response: { 202: dataEnvelope(AgentRunSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    const { run } = await createAgentRun(app.ctx, req.auth, req.params.projectId, req.body);
    return reply.code(202).send({ data: run });
  });

  app.get(`${prefix}/:runId`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Get a docs agent run',
      description: 'status queued | running | succeeded | failed; reviewId once a review was opened (null when nothing needed review); findings: the flagged lines [{path, line, reason}]; error when failed.',
      params: AgentRunParamsSchema,
      response: { 200: dataEnvelope(AgentRunSchema), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await getAgentRun(app.ctx, req.auth, req.params.projectId, req.params.runId) }));
};
export default agentRoutes;
