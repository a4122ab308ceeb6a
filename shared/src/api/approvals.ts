/**
 * REST shapes of approval gates and approvals (interface-spec.md "Collaboration": `/approval-gates`,
 * `/approvals`, `/approvals/{id}/approve`, `/approvals/{id}/reject`; decisions.md section 9; the
 * payloads are Quire's own and are written into the OpenAPI document).
 *
 * A gate names path globs (shared/src/collab/path-glob.ts), the approvals a production deploy
 * touching them needs (1..10) and, optionally, who may approve (users, roles). An approval is the
 * pause of one production build before its deploy step (state machine:
 * shared/src/collab/approval-status.ts).
 */
import { z } from 'zod';
import { TimestampSchema } from './common';
import { RoleSchema, UserIdSchema } from './members';
import { validatePathGlob } from '../collab/path-glob';
import { APPROVAL_STATUSES } from '../collab/approval-status';

/** Most globs on one gate, and most eligible users. */
export const MAX_GATE_PATHS = 50;
export const MAX_GATE_USERS = 50;
/** Bounds of a gate's (or a requested approval's) required approvals. */
export const MIN_REQUIRED_APPROVALS = 1;
export const MAX_REQUIRED_APPROVALS = 10;

/** One path glob, checked with `validatePathGlob` (a bad one is a 400 naming `paths.<n>`). */
export const PathGlobSchema = z
  .string()
  .superRefine((glob, ctx) => {
    const problem = validatePathGlob(glob);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('A path glob relative to the repository root: `*` stays within a folder, `**` crosses folders, dotfiles match (e.g. `docs/security/**`, `**/*.mdx`)');

const GateNameSchema = z.string().trim().min(1, 'must not be empty').max(200, 'at most 200 characters');
const RequiredApprovalsSchema = z.number().int().min(MIN_REQUIRED_APPROVALS).max(MAX_REQUIRED_APPROVALS);
const GatePathsSchema = z.array(PathGlobSchema).min(1, 'name at least one path glob').max(MAX_GATE_PATHS);
const EligibleUsersSchema = z.array(UserIdSchema).max(MAX_GATE_USERS).describe('Users who may approve (members of the organization)');
const EligibleRolesSchema = z.array(RoleSchema).max(5).describe('Organization roles whose holders may approve');

/** `POST /approval-gates`. Without `eligibleUsers` and `eligibleRoles`, anyone who may approve (reviewer role or above; keys with projects:write) may. */
export const ApprovalGateBodySchema = z
  .object({
    name: GateNameSchema,
    paths: GatePathsSchema,
    requiredApprovals: RequiredApprovalsSchema.default(1).describe('Distinct approvals a matching deploy needs (1..10, default 1)'),
    eligibleUsers: EligibleUsersSchema.optional(),
    eligibleRoles: EligibleRolesSchema.optional(),
  })
  .strict();
export type ApprovalGateBody = z.infer<typeof ApprovalGateBodySchema>;

/** `PATCH /approval-gates/{gateId}`: only given fields change. */
export const ApprovalGatePatchSchema = z
  .object({
    name: GateNameSchema.optional(),
    paths: GatePathsSchema.optional(),
    requiredApprovals: RequiredApprovalsSchema.optional(),
    eligibleUsers: EligibleUsersSchema.optional(),
    eligibleRoles: EligibleRolesSchema.optional(),
  })
  .strict();
export type ApprovalGatePatch = z.infer<typeof ApprovalGatePatchSchema>;

/** A gate as returned. */
export const ApprovalGateDtoSchema = z.object({
  id: z.string().describe('gat_<id>'),
  name: z.string(),
  paths: z.array(z.string()),
  requiredApprovals: z.number().int(),
  eligibleUsers: z.array(z.string()),
  eligibleRoles: z.array(RoleSchema),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type ApprovalGateDto = z.infer<typeof ApprovalGateDtoSchema>;

/** Path parameters of one gate. */
export const ApprovalGateParamsSchema = z.object({ projectId: z.string().max(100), gateId: z.string().max(100).describe('gat_<id>') });

/** A person as shown on an approval (a deleted user shows empty strings). */
export const ApprovalUserSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type ApprovalUser = z.infer<typeof ApprovalUserSchema>;

export const ApprovalStatusSchema = z.enum(APPROVAL_STATUSES);

/** An approval as returned. */
export const ApprovalDtoSchema = z.object({
  id: z.string().describe('apv_<id>'),
  buildId: z.string().describe('The production build waiting for it'),
  status: ApprovalStatusSchema.describe('pending → approved (enough distinct approvals: the deploy goes on) | rejected (the build fails with the reason)'),
  gates: z.array(z.object({ id: z.string(), name: z.string().describe('Empty when the gate was deleted since') })).describe('The gates the deploy matched; empty for an approval requested by hand'),
  paths: z.array(z.string()).describe('The changed paths that matched the gates'),
  requiredApprovals: z.number().int(),
  approvals: z.array(z.object({ user: ApprovalUserSchema, comment: z.string().nullable(), createdAt: TimestampSchema })),
  rejection: z.object({ user: ApprovalUserSchema.nullable().describe('null when the system closed it (the build was cancelled)'), reason: z.string(), createdAt: TimestampSchema }).optional(),
  author: ApprovalUserSchema.optional().describe("The change's author (never approves it)"),
  createdAt: TimestampSchema,
  decidedAt: TimestampSchema.nullable(),
});
export type ApprovalDto = z.infer<typeof ApprovalDtoSchema>;

/** Filters of `GET /approvals`. */
export const ListApprovalsFiltersSchema = z.object({ status: ApprovalStatusSchema.optional() });
export type ListApprovalsFilters = z.infer<typeof ListApprovalsFiltersSchema>;

/** `POST /approvals`: make a queued or building production build wait for approval before it deploys. */
export const CreateApprovalBodySchema = z
  .object({
    buildId: z.string().min(1).max(100).describe('bld_<id> of a queued or building production build of the project'),
    requiredApprovals: RequiredApprovalsSchema.optional().describe('Distinct approvals needed (1..10, default 1)'),
  })
  .strict();
export type CreateApprovalBody = z.infer<typeof CreateApprovalBodySchema>;

/** `POST /approvals/{id}/approve`. */
export const ApproveBodySchema = z.object({ comment: z.string().trim().max(2_000).optional() }).strict();
/** `POST /approvals/{id}/reject`: the reason becomes the build's error. */
export const RejectBodySchema = z.object({ reason: z.string().trim().min(1, 'give a reason').max(2_000) }).strict();

/** Path parameters of one approval. */
export const ApprovalParamsSchema = z.object({ projectId: z.string().max(100), approvalId: z.string().max(100).describe('apv_<id>') });
