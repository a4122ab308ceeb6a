import { z } from 'zod';
import { EmailSchema, OrgIdSchema, type PublicUser, type Role } from './members';

/**
 * Input of `auth.signIn`. The password is checked as given (no trimming); `orgId` picks the
 * organization when the person belongs to several (default: the membership they joined first).
 * Length bounds are loose on purpose: a wrong password of any shape gets the same UNAUTHORIZED answer.
 */
export const SignInInputSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, 'must not be empty').max(1024, 'at most 1024 characters'),
  orgId: OrgIdSchema.optional(),
});
/** Input of `auth.signIn`. */
export type SignInInput = z.infer<typeof SignInInputSchema>;

/** An organization as its members see it in the session. */
export interface SessionOrg {
  id: string;
  name: string;
}

/** Who the session belongs to: result of `auth.me`. */
export interface SessionIdentity {
  user: PublicUser;
  org: SessionOrg;
  role: Role;
}

/** Result of `auth.signIn`: a bearer token for `Authorization: Bearer <token>` on `/trpc`, valid until `expiresAt` (ISO 8601). */
export interface SignInResult extends SessionIdentity {
  token: string;
  expiresAt: string;
}
