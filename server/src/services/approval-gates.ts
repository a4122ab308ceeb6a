/**
 * Approval gates (decisions.md section 9; interface-spec.md "Collaboration", `/approval-gates`):
 * path globs (shared/src/collab/path-glob.ts), a number of required approvals (1..10) and,
 * optionally, the users and roles who may approve. A production deploy whose changed paths match a
 * gate waits for approval before its deploy step (services/approvals.ts, jobs/build-runner.ts).
 * Reads need `projects:read`, changes `projects:write`; every change is audited
 * (`approval_gate.created|updated|deleted`).
 */
import { ApiError, invalidField } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import { compilePathGlobs } from '@quire/shared/collab/path-glob';
import type { ApprovalGateBody, ApprovalGateDto, ApprovalGatePatch } from '@quire/shared/api/approvals';
import type { Role } from '@quire/shared/api/members';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import type { RequestAuth } from '../access/request-auth';
import { recordAudit, type DbClient } from './audit';
import { getProjectForCaller } from './projects';
import { parseStringList } from '../db/json-columns';

type GateRow = Models.ApprovalGateModel;

/** A stored gate with its JSON columns parsed. */
export interface GateRecord {
  id: string;
  name: string;
  paths: string[];
  requiredApprovals: number;
  eligibleUsers: string[];
  eligibleRoles: Role[];
}

/** A stored JSON `string[]` column; an unreadable one counts as empty. */
const parseList = (json: string): string[] => parseStringList(json) ?? [];

/** A row as a {@link GateRecord}. */
export function toGateRecord(row: GateRow): GateRecord {
  return {
    id: row.id,
    name: row.name,
    paths: parseList(row.paths),
    requiredApprovals: row.requiredApprovals,
    eligibleUsers: parseList(row.eligibleUsers),
    eligibleRoles: parseList(row.eligibleRoles) as Role[],
  };
}

/** The REST form of a gate. */
export function toGateDto(row: GateRow): ApprovalGateDto {
  return { ...toGateRecord(row), createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/**
 * 400 naming `eligibleUsers.<n>` for the first listed user who is not a member of the organization
 * (another organization's users are not told apart from unknown ones).
 */
async function checkEligibleUsers(ctx: AppContext, orgId: string, userIds: readonly string[] | undefined): Promise<void> {
  if (!userIds || userIds.length === 0) return;
  const members = await ctx.db.prisma.membership.findMany({ where: { orgId, userId: { in: [...userIds] } }, select: { userId: true } });
  const known = new Set(members.map((m) => m.userId));
  const index = userIds.findIndex((id) => !known.has(id));
  if (index >= 0) throw invalidField(`eligibleUsers.${index}`, 'is not a member of the organization', `eligibleUsers.${index}: ${userIds[index]} is not a member of the organization.`);
}

const unique = <T>(values: readonly T[] | undefined): T[] => [...new Set(values ?? [])];

/** The gates of a project, oldest first. @throws ApiError not_found (project unknown or not the caller's). */
export async function listApprovalGates(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<GateRow[]> {
  await getProjectForCaller(ctx, auth, projectId);
  return ctx.db.prisma.approvalGate.findMany({ where: { projectId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

async function gateOf(ctx: AppContext, auth: RequestAuth, projectId: string, gateId: string): Promise<GateRow> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.approvalGate.findUnique({ where: { id: gateId } });
  if (!row || row.projectId !== projectId) throw new ApiError('not_found', `No approval gate ${gateId} in this project.`);
  return row;
}

/** One gate. @throws ApiError not_found (project or gate unknown, or not the caller's). */
export async function getApprovalGate(ctx: AppContext, auth: RequestAuth, projectId: string, gateId: string): Promise<GateRow> {
  return gateOf(ctx, auth, projectId, gateId);
}

/**
 * Adds a gate (body validated by `ApprovalGateBodySchema`: globs, 1..10 approvals); audited as
 * `approval_gate.created`.
 * @throws ApiError not_found; invalid_request naming `eligibleUsers.<n>` for a user outside the organization.
 */
export async function createApprovalGate(ctx: AppContext, auth: RequestAuth, projectId: string, body: ApprovalGateBody): Promise<GateRow> {
  await getProjectForCaller(ctx, auth, projectId);
  await checkEligibleUsers(ctx, auth.orgId, body.eligibleUsers);
  return ctx.db.prisma.$transaction(async (tx) => {
    const row = await tx.approvalGate.create({
      data: {
        id: newId('approvalGate'),
        projectId,
        name: body.name,
        paths: JSON.stringify(unique(body.paths)),
        requiredApprovals: body.requiredApprovals ?? 1,
        eligibleUsers: JSON.stringify(unique(body.eligibleUsers)),
        eligibleRoles: JSON.stringify(unique(body.eligibleRoles)),
      },
    });
    await recordAudit(tx, {
      orgId: auth.orgId,
      projectId,
      auth,
      action: 'approval_gate.created',
      resource: { type: 'approval_gate', id: row.id, name: row.name },
      metadata: { paths: unique(body.paths), requiredApprovals: row.requiredApprovals },
    });
    return row;
  });
}

/**
 * Changes the given fields of a gate; audited as `approval_gate.updated` (with the changed field
 * names). A deploy already waiting keeps the approvals count it started with.
 * @throws ApiError not_found; invalid_request naming `eligibleUsers.<n>`.
 */
export async function updateApprovalGate(ctx: AppContext, auth: RequestAuth, projectId: string, gateId: string, patch: ApprovalGatePatch): Promise<GateRow> {
  await gateOf(ctx, auth, projectId, gateId);
  await checkEligibleUsers(ctx, auth.orgId, patch.eligibleUsers);
  return ctx.db.prisma.$transaction(async (tx) => {
    const row = await tx.approvalGate.update({
      where: { id: gateId },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.paths !== undefined ? { paths: JSON.stringify(unique(patch.paths)) } : {}),
        ...(patch.requiredApprovals !== undefined ? { requiredApprovals: patch.requiredApprovals } : {}),
        ...(patch.eligibleUsers !== undefined ? { eligibleUsers: JSON.stringify(unique(patch.eligibleUsers)) } : {}),
        ...(patch.eligibleRoles !== undefined ? { eligibleRoles: JSON.stringify(unique(patch.eligibleRoles)) } : {}),
      },
    });
    await recordAudit(tx, {
      orgId: auth.orgId,
      projectId,
      auth,
      action: 'approval_gate.updated',
      resource: { type: 'approval_gate', id: gateId, name: row.name },
      metadata: { changes: Object.keys(patch).filter((k) => (patch as Record<string, unknown>)[k] !== undefined) },
    });
    return row;
  });
}

/**
 * Deletes a gate; audited as `approval_gate.deleted`. Deploys already waiting keep waiting for
 * their approval (shown with the gate's id and an empty name).
 * @throws ApiError not_found.
 */
export async function deleteApprovalGate(ctx: AppContext, auth: RequestAuth, projectId: string, gateId: string): Promise<void> {
  const row = await gateOf(ctx, auth, projectId, gateId);
  await ctx.db.prisma.$transaction(async (tx) => {
    await tx.approvalGate.delete({ where: { id: gateId } });
    await recordAudit(tx, { orgId: auth.orgId, projectId, auth, action: 'approval_gate.deleted', resource: { type: 'approval_gate', id: gateId, name: row.name } });
  });
}

/** The gates a change matched: which gates, which changed paths, and the approvals needed (the largest of the gates'). */
export interface GateMatch {
  gates: GateRecord[];
  /** changed paths matching at least one gate, sorted */
  paths: string[];
  requiredApprovals: number;
}

/**
 * Matches a change's paths against a project's gates (no caller: used by the build runner).
 * @param changed repository-relative paths changed by the deploy.
 * @returns null when no gate matches.
 */
export async function matchApprovalGates(db: DbClient, projectId: string, changed: readonly string[]): Promise<GateMatch | null> {
  const gates = (await db.approvalGate.findMany({ where: { projectId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })).map(toGateRecord);
  const matchedGates: GateRecord[] = [];
  const paths = new Set<string>();
  for (const gate of gates) {
    let matcher: (path: string) => boolean;
    try {
      matcher = compilePathGlobs(gate.paths);
    } catch {
      continue; // stored globs were validated when written
    }
    const hits = changed.filter(matcher);
    if (hits.length === 0) continue;
    matchedGates.push(gate);
    for (const p of hits) paths.add(p);
  }
  if (matchedGates.length === 0) return null;
  return { gates: matchedGates, paths: [...paths].sort(), requiredApprovals: Math.max(...matchedGates.map((g) => g.requiredApprovals)) };
}
