import { SignInInputSchema, type SessionIdentity, type SignInResult } from '@quire/shared/api/auth';
import { signIn } from '../../services/sign-in';
import { revokeSession } from '../../services/sessions';
import { authedProcedure, publicProcedure, router } from '../trpc';

/**
 * `auth`: signing in and out, and who am I (decisions.md section 2).
 * - `signIn({email, password, orgId?})` → `{token, expiresAt, user, org, role}`; send the token as
 *   `Authorization: Bearer <token>` afterwards. Wrong e-mail or password: UNAUTHORIZED, one message.
 * - `signOut()` ends the calling session.
 * - `me()` → `{user, org, role}` of the calling session.
 */
export const authRouter = router({
  signIn: publicProcedure
    .input(SignInInputSchema)
    .mutation(({ ctx, input }): Promise<SignInResult> => signIn(ctx.app.db, input, { throttle: ctx.app.signInThrottle, ip: ctx.ip })),

  signOut: authedProcedure.mutation(async ({ ctx }): Promise<{ signedOut: true }> => {
    if (ctx.token) await revokeSession(ctx.app.db, ctx.token);
    return { signedOut: true };
  }),

  me: authedProcedure.query(({ ctx }): SessionIdentity => ({ user: ctx.session.user, org: ctx.session.org, role: ctx.session.role })),
});
