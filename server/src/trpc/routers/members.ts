import {
  InviteMemberInputSchema,
  RemoveMemberInputSchema,
  SetMemberRoleInputSchema,
  type InviteMemberResult,
  type Member,
} from '@quire/shared/api/members';
import { inviteMember, listMembers, removeMember, setMemberRole, type MemberActor, type RemoveMemberResult } from '../../services/members';
import type { ResolvedSession } from '../../services/sessions';
import { authedProcedure, managerProcedure, router } from '../trpc';

function actorOf(session: ResolvedSession): MemberActor {
  return { orgId: session.org.id, userId: session.user.id, role: session.role };
}

/**
 * `members`: the people of the session's organization and their org roles (decisions.md section 2).
 * - `list()` (any member) → `[{user, role, joinedAt}]`, oldest first.
 * - `invite({email, name?, role})` → `{user, role, oneTimePassword?}` (password only for a new account).
 * - `setRole({userId, role})` → the member.
 * - `remove({userId})` → `{userId, userDeleted}`.
 * invite/setRole/remove need owner or admin (FORBIDDEN otherwise); an admin cannot create,
 * promote, demote or remove owners (FORBIDDEN); the last owner cannot be demoted or removed
 * (CONFLICT); a user outside the organization is NOT_FOUND; an existing member invited again is CONFLICT.
 */
export const membersRouter = router({
  list: authedProcedure.query(({ ctx }): Promise<Member[]> => listMembers(ctx.app.db, ctx.session.org.id)),

  invite: managerProcedure
    .input(InviteMemberInputSchema)
    .mutation(({ ctx, input }): Promise<InviteMemberResult> => inviteMember(ctx.app.db, actorOf(ctx.session), input)),

  setRole: managerProcedure
    .input(SetMemberRoleInputSchema)
    .mutation(({ ctx, input }): Promise<Member> => setMemberRole(ctx.app.db, actorOf(ctx.session), input)),

  remove: managerProcedure
    .input(RemoveMemberInputSchema)
    .mutation(({ ctx, input }): Promise<RemoveMemberResult> => removeMember(ctx.app.db, actorOf(ctx.session), input)),
});
