import { z } from 'zod';
import {
  ApprovalGateBodySchema,
  ApprovalGatePatchSchema,
  ApprovalStatusSchema,
  CreateApprovalBodySchema,
  RejectBodySchema,
  ApproveBodySchema,
  type ApprovalDto,
  type ApprovalGateDto,
} from '@quire/shared/api/approvals';
import { resolvePage } from '../../http/pagination';
import { createApprovalGate, deleteApprovalGate, listApprovalGates, toGateDto, updateApprovalGate } from '../../services/approval-gates';
import { toApprovalDto, toApprovalDtos } from '../../services/approval-dto';
import { decideApproval, getApproval, listApprovals, requestApproval } from '../../services/approvals';
import { permittedProcedure, router } from '../trpc';

const ProjectInput = z.object({ projectId: z.string().max(64) });
const ApprovalInput = ProjectInput.extend({ approvalId: z.string().max(64) });
const GateInput = ProjectInput.extend({ gateId: z.string().max(64) });

const reader = permittedProcedure('projects:read');
const writer = permittedProcedure('projects:write');

/**
 * `approvals`: approval gates and approvals for the desktop app (the twins of the REST routes, same
 * services and rules; decisions.md section 9). Every procedure takes `projectId`; unknown or
 * foreign ids are NOT_FOUND. Every role reads; approving and rejecting take a reviewer or above (or
 * the users/roles the gates name), never the change's author (FORBIDDEN), and a decided approval is
 * CONFLICT; gate changes and hand requests need an editor, admin or owner.
 * - `list({projectId, status?, page?, pageSize?})` → `{items, total}` newest first; `get({projectId, approvalId})`.
 * - `request({projectId, buildId, requiredApprovals?})` → the new pending approval.
 * - `approve({projectId, approvalId, comment?})`, `reject({projectId, approvalId, reason})` → the approval after the decision.
 * - `gates.list/create/update/delete`.
 */
export const approvalsRouter = router({
  list: reader
    .input(
      ProjectInput.extend({
        status: ApprovalStatusSchema.optional(),
        page: z.number().int().min(1).default(1),
        pageSize: z.number().int().min(1).max(100).default(20),
      }),
    )
    .query(async ({ ctx, input }): Promise<{ items: ApprovalDto[]; total: number }> => {
      const { items, total } = await listApprovals(
        ctx.app,
        ctx.auth,
        input.projectId,
        { status: input.status },
        resolvePage({ page: input.page, pageSize: input.pageSize }),
      );
      return { items: await toApprovalDtos(ctx.app, items), total };
    }),
  get: reader
    .input(ApprovalInput)
    .query(async ({ ctx, input }): Promise<ApprovalDto> => toApprovalDto(ctx.app, await getApproval(ctx.app, ctx.auth, input.projectId, input.approvalId))),
  request: writer
    .input(ProjectInput.extend(CreateApprovalBodySchema.shape))
    .mutation(async ({ ctx, input }): Promise<ApprovalDto> => {
      const { projectId, ...body } = input;
      return toApprovalDto(ctx.app, await requestApproval(ctx.app, ctx.auth, projectId, body));
    }),
  approve: reader
    .input(ApprovalInput.extend(ApproveBodySchema.shape))
    .mutation(async ({ ctx, input }): Promise<ApprovalDto> => toApprovalDto(ctx.app, await decideApproval(ctx.app, ctx.auth, input.projectId, input.approvalId, 'approve', input.comment || undefined))),
  reject: reader
    .input(ApprovalInput.extend(RejectBodySchema.shape))
    .mutation(async ({ ctx, input }): Promise<ApprovalDto> => toApprovalDto(ctx.app, await decideApproval(ctx.app, ctx.auth, input.projectId, input.approvalId, 'reject', input.reason))),
  gates: router({
    list: reader
      .input(ProjectInput)
      .query(async ({ ctx, input }): Promise<ApprovalGateDto[]> => (await listApprovalGates(ctx.app, ctx.auth, input.projectId)).map(toGateDto)),
    create: writer
      .input(ProjectInput.extend({ gate: ApprovalGateBodySchema }))
      .mutation(async ({ ctx, input }): Promise<ApprovalGateDto> => toGateDto(await createApprovalGate(ctx.app, ctx.auth, input.projectId, input.gate))),
    update: writer
      .input(GateInput.extend({ patch: ApprovalGatePatchSchema }))
      .mutation(
        async ({ ctx, input }): Promise<ApprovalGateDto> => toGateDto(await updateApprovalGate(ctx.app, ctx.auth, input.projectId, input.gateId, input.patch)),
      ),
    delete: writer.input(GateInput).mutation(async ({ ctx, input }): Promise<void> => deleteApprovalGate(ctx.app, ctx.auth, input.projectId, input.gateId)),
  }),
});
