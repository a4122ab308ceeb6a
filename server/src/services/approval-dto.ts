/**
 * The REST form of approvals (interface-spec.md "Collaboration", `/approvals`), apart from the
 * approval service so that webhook events (webhook-events.ts) can describe an approval without
 * importing the service that records those events.
 */
import type { ApprovalDto, ApprovalUser } from '@quire/shared/api/approvals';
import type { ApprovalStatus } from '@quire/shared/collab/approval-status';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import { parseStringList } from '../db/json-columns';

/** An approval row with its decisions. */
export type ApprovalRow = Models.ApprovalModel & { decisions: Models.ApprovalDecisionModel[] };

/** A stored JSON `string[]` column; an unreadable one counts as empty. */
const parseList = (json: string): string[] => parseStringList(json) ?? [];

const ordered = (rows: Models.ApprovalDecisionModel[]) =>
  [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.userId < b.userId ? -1 : 1));

/**
 * The REST form of approvals, users and gate names loaded in two queries. A deleted user shows
 * empty strings; a deleted gate an empty name.
 */
export async function toApprovalDtos(ctx: AppContext, rows: ApprovalRow[]): Promise<ApprovalDto[]> {
  const gateIds = [...new Set(rows.flatMap((r) => parseList(r.gateIds)))];
  const userIds = [...new Set(rows.flatMap((r) => [...r.decisions.map((d) => d.userId), ...(r.authorId ? [r.authorId] : [])]))];
  const [gates, users] = await Promise.all([
    gateIds.length ? ctx.db.prisma.approvalGate.findMany({ where: { id: { in: gateIds } }, select: { id: true, name: true } }) : [],
    userIds.length ? ctx.db.prisma.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } }) : [],
  ]);
  const gateName = new Map(gates.map((g) => [g.id, g.name]));
  const userOf = new Map(users.map((u) => [u.id, u]));
  const user = (id: string): ApprovalUser => userOf.get(id) ?? { id: '', name: '', email: '' };
  return rows.map((row) => {
    const decisions = ordered(row.decisions);
    const rejection = decisions.find((d) => d.decision === 'reject');
    return {
      id: row.id,
      buildId: row.buildId,
      status: row.status as ApprovalStatus,
      gates: parseList(row.gateIds).map((id) => ({ id, name: gateName.get(id) ?? '' })),
      paths: parseList(row.paths),
      requiredApprovals: row.requiredApprovals,
      approvals: decisions.filter((d) => d.decision === 'approve').map((d) => ({ user: user(d.userId), comment: d.reason, createdAt: d.createdAt.toISOString() })),
      ...(row.status === 'rejected'
        ? {
            rejection: rejection
              ? { user: user(rejection.userId), reason: rejection.reason ?? row.reason ?? '', createdAt: rejection.createdAt.toISOString() }
              : { user: null, reason: row.reason ?? '', createdAt: (row.decidedAt ?? row.createdAt).toISOString() },
          }
        : {}),
      ...(row.authorId ? { author: user(row.authorId) } : {}),
      createdAt: row.createdAt.toISOString(),
      decidedAt: row.decidedAt?.toISOString() ?? null,
    };
  });
}

/** {@link toApprovalDtos} of one approval. */
export async function toApprovalDto(ctx: AppContext, row: ApprovalRow): Promise<ApprovalDto> {
  return (await toApprovalDtos(ctx, [row]))[0]!;
}
