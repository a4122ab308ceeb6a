/**
 * Approval gates and approvals (interface-spec.md "Collaboration"; decisions.md section 9):
 * `/approval-gates` (list, create, get, change, delete) and `/approvals` (list, get, request by
 * hand, approve, reject). Reads need `projects:read`; gate changes and hand requests
 * `projects:write`; approving and rejecting need `projects:read` plus the approval rules
 * (services/approvals.ts: the current role reviewer or above, keys with `projects:write`, the gates'
 * eligible users or roles, never the change's author).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses, PaginationSchema } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import {
  ApprovalDtoSchema,
  ApprovalGateBodySchema,
  ApprovalGateDtoSchema,
  ApprovalGateParamsSchema,
  ApprovalGatePatchSchema,
  ApprovalParamsSchema,
  ApproveBodySchema,
  CreateApprovalBodySchema,
  ListApprovalsFiltersSchema,
  RejectBodySchema,
} from '@quire/shared/api/approvals';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { createApprovalGate, deleteApprovalGate, getApprovalGate, listApprovalGates, toGateDto, updateApprovalGate } from '../../../services/approval-gates';
import { toApprovalDto, toApprovalDtos } from '../../../services/approval-dto';
import { decideApproval, getApproval, listApprovals, requestApproval } from '../../../services/approvals';

const GLOB_RULES = 'Globs are relative to the repository root: `*` and `?` stay within a folder, `**` crosses folders (`docs/**` is everything under docs), dotfiles match, `{a,b}` and `[ab]` work; a leading `!`, `..` segments and backslashes are refused.';

const approvalsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const gateTags = ['Approval gates'];
  const tags = ['Approvals'];
  const prefix = '/projects/:projectId';

  app.get(`${prefix}/approval-gates`, {
    config: { permission: 'projects:read' },
    schema: { tags: gateTags, summary: 'List approval gates', description: 'Oldest first; not paginated.', params: ProjectParamsSchema, response: { 200: z.object({ data: z.array(ApprovalGateDtoSchema) }), ...errorResponses(401, 403, 404, 429) } },
  }, async (req) => ({ data: (await listApprovalGates(app.ctx, req.auth, req.params.projectId)).map(toGateDto) }));

  app.post(`${prefix}/approval-gates`, {
    config: { permission: 'projects:write' },
    schema: {
      tags: gateTags,
      summary: 'Add an approval gate',
      description:
        `A production deploy, or a documentation version's deploy (served under /<label>/ of the production site), whose changed files (between the commit its channel serves now and the new one; every file on the channel's first deploy) match one of \`paths\` pauses after rendering, before its deploy step, until \`requiredApprovals\` (1..10, default 1) distinct eligible people approve it (see /approvals). ${GLOB_RULES} ` +
        'eligibleUsers (organization members) and eligibleRoles narrow who may approve; without them anyone with the reviewer role or above may (API keys also need projects:write). 400 naming the field for a bad glob or a user outside the organization. Audited as approval_gate.created.',
      params: ProjectParamsSchema,
      body: ApprovalGateBodySchema,
      response: { 201: dataEnvelope(ApprovalGateDtoSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) => reply.code(201).send({ data: toGateDto(await createApprovalGate(app.ctx, req.auth, req.params.projectId, req.body)) }));

  app.get(`${prefix}/approval-gates/:gateId`, {
    config: { permission: 'projects:read' },
    schema: { tags: gateTags, summary: 'Get an approval gate', description: '404 for an unknown gate or one of another project.', params: ApprovalGateParamsSchema, response: { 200: dataEnvelope(ApprovalGateDtoSchema), ...errorResponses(401, 403, 404, 429) } },
  }, async (req) => ({ data: toGateDto(await getApprovalGate(app.ctx, req.auth, req.params.projectId, req.params.gateId)) }));

  app.patch(`${prefix}/approval-gates/:gateId`, {
    config: { permission: 'projects:write' },
    schema: {
      tags: gateTags,
      summary: 'Change an approval gate',
      description: `Only the given fields change. ${GLOB_RULES} Deploys already waiting keep the approvals count they started with. Audited as approval_gate.updated.`,
      params: ApprovalGateParamsSchema,
      body: ApprovalGatePatchSchema,
      response: { 200: dataEnvelope(ApprovalGateDtoSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: toGateDto(await updateApprovalGate(app.ctx, req.auth, req.params.projectId, req.params.gateId, req.body)) }));

  app.delete(`${prefix}/approval-gates/:gateId`, {
    config: { permission: 'projects:write' },
    schema: { tags: gateTags, summary: 'Delete an approval gate', description: 'Deploys already waiting keep waiting for their approval. Audited as approval_gate.deleted.', params: ApprovalGateParamsSchema, response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404, 429) } },
  }, async (req, reply) => {
    await deleteApprovalGate(app.ctx, req.auth, req.params.projectId, req.params.gateId);
    return reply.code(204).send(null);
  });

  app.get(`${prefix}/approvals`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'List approvals',
      description: 'Newest first; filter `status` (pending, approved, rejected). Pagination: page, pageSize (alias per_page; default 20, above 100 clamped).',
      params: ProjectParamsSchema,
      querystring: PageQuerySchema.extend(ListApprovalsFiltersSchema.shape),
      response: { 200: z.object({ data: z.array(ApprovalDtoSchema), pagination: PaginationSchema }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await listApprovals(app.ctx, req.auth, req.params.projectId, req.query, page);
    return { data: await toApprovalDtos(app.ctx, items), pagination: pagination(page, total) };
  });

  app.post(`${prefix}/approvals`, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Request an approval for a build',
      description:
        'Makes a queued or building production (or version) build wait for approval before its deploy step, as if a gate had matched: `requiredApprovals` (1..10, default 1) distinct people must approve it, or one rejection fails it. ' +
        'Gates matching the build\'s changes add theirs (the larger count wins). A build already past its deploy check deploys anyway. 400 for a preview build; 409 when the build already ended or already has an approval. Audited as approval.requested.',
      params: ProjectParamsSchema,
      body: CreateApprovalBodySchema,
      response: { 201: dataEnvelope(ApprovalDtoSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req, reply) =>
    reply.code(201).send({ data: await toApprovalDto(app.ctx, await requestApproval(app.ctx, req.auth, req.params.projectId, req.body)) }),
  );

  app.get(`${prefix}/approvals/:approvalId`, {
    config: { permission: 'projects:read' },
    schema: { tags, summary: 'Get an approval', description: '404 for an unknown approval or one of another project.', params: ApprovalParamsSchema, response: { 200: dataEnvelope(ApprovalDtoSchema), ...errorResponses(401, 403, 404, 429) } },
  }, async (req) => ({ data: await toApprovalDto(app.ctx, await getApproval(app.ctx, req.auth, req.params.projectId, req.params.approvalId)) }));

  app.post(`${prefix}/approvals/:approvalId/approve`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Approve a deploy',
      description:
        'Records your approval (optional `comment`). Once `requiredApprovals` distinct people approved, the approval is `approved` and the build deploys (within seconds, by a background job). ' +
        '403 for the change\'s author, for a person whose current role is below reviewer or whom the gates do not name, and for an API key without projects:write; 409 when you already approved or the approval is already decided (naming both states). Audited as approval.approved.',
      params: ApprovalParamsSchema,
      body: ApproveBodySchema.nullish(),
      response: { 200: dataEnvelope(ApprovalDtoSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req) => {
    const row = await decideApproval(app.ctx, req.auth, req.params.projectId, req.params.approvalId, 'approve', req.body?.comment || undefined);
    return { data: await toApprovalDto(app.ctx, row) };
  });

  app.post(`${prefix}/approvals/:approvalId/reject`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Reject a deploy',
      description:
        'Rejects the deploy with a `reason` (required): the approval is `rejected` and the waiting build fails with the reason as its error; the previous deployment keeps serving. ' +
        'Eligible people (as for approving) and the change\'s author may reject, with a current role of reviewer or above (API keys: projects:write); 403 otherwise. 409 when the approval is already decided (naming both states). Audited as approval.rejected.',
      params: ApprovalParamsSchema,
      body: RejectBodySchema,
      response: { 200: dataEnvelope(ApprovalDtoSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req) => ({ data: await toApprovalDto(app.ctx, await decideApproval(app.ctx, req.auth, req.params.projectId, req.params.approvalId, 'reject', req.body.reason)) }));
};
export default approvalsRoutes;
