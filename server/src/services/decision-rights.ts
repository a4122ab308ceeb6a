/**
 * The server side of the rule for deciding reviews and approvals
 * (`@quire/shared/collab/decision-rights`): the caller's role is read from their membership at the
 * time of the decision, so a person demoted since their key was made, their session began or they
 * were requested as a reviewer decides nothing. Used by every decision: review status moves
 * (services/reviews.ts, reached from REST, tRPC and sync push) and approvals (services/approvals.ts).
 */
import { ApiError } from '@quire/shared/errors';
import { RoleSchema, type Role } from '@quire/shared/api/members';
import { decisionRefusal } from '@quire/shared/collab/decision-rights';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';

/**
 * Checks that the caller may decide (`what` names the action in the message).
 * @returns the caller's current organization role (one of `REVIEWING_ROLES`).
 * @throws ApiError forbidden (403) when no person acts, the key lacks `projects:write`
 *   (`details.permission`), or the person's current role is viewer or they left the organization.
 */
export async function requireDecisionRight(ctx: AppContext, auth: RequestAuth, what: string): Promise<Role> {
  const membership = auth.userId
    ? await ctx.db.prisma.membership.findUnique({ where: { orgId_userId: { orgId: auth.orgId, userId: auth.userId } }, select: { role: true } })
    : null;
  const parsed = RoleSchema.safeParse(membership?.role);
  const role = parsed.success ? parsed.data : null;
  const refusal = decisionRefusal({ userId: auth.userId, role, viaKey: auth.keyId !== null, permissions: auth.permissions }, what);
  if (refusal) throw new ApiError(refusal.code, refusal.message, refusal.details);
  return role!;
}
