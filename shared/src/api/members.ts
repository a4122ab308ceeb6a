import { z } from 'zod';
import type { Permission } from './api-keys';

/**
 * Organization roles, strongest first (decisions.md section 2). `owner` and `admin` manage members;
 * only an owner may create, promote, demote or remove another owner.
 */
export const ROLES = ['owner', 'admin', 'editor', 'reviewer', 'viewer'] as const;

/** An organization role; see {@link ROLES}. */
export const RoleSchema = z.enum(ROLES);
/** An organization role: `owner`, `admin`, `editor`, `reviewer` or `viewer`. */
export type Role = z.infer<typeof RoleSchema>;

/**
 * What each role may do through the API's permissions (decisions.md section 2's permission table
 * applied to people): viewers and reviewers read (reviewers' approvals and comments are checked by
 * the collaboration rules), editors also write (projects, collaboration) and build, owners and
 * admins hold `admin`.
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: ['admin'],
  admin: ['admin'],
  editor: ['projects:read', 'projects:write', 'builds:read', 'builds:write', 'search:read'],
  reviewer: ['projects:read', 'builds:read', 'search:read'],
  viewer: ['projects:read', 'builds:read', 'search:read'],
};

/** Roles allowed to invite members, change roles and remove members. */
export const MEMBER_MANAGER_ROLES: readonly Role[] = ['owner', 'admin'];

/**
 * Roles that review: comment on reviews, approve them, request changes and decide approvals
 * (decisions.md section 2 maps roles: a viewer reads, a reviewer also reviews, an editor also writes).
 * API keys have no role: they review with `projects:write`.
 */
export const REVIEWING_ROLES: readonly Role[] = ['owner', 'admin', 'editor', 'reviewer'];

/**
 * An e-mail address as Quire stores it: trimmed, lower-cased, at most 254 characters
 * (so `Ada@Example.com ` and `ada@example.com` are the same account).
 */
export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'an e-mail address has at most 254 characters')
  .pipe(z.email('must be an e-mail address'));

/** A person's display name: trimmed, 1-200 characters. */
export const UserNameSchema = z.string().trim().min(1, 'must not be empty').max(200, 'at most 200 characters');

/**
 * A password a person chooses: 8-1024 characters (the upper bound keeps hashing cost bounded).
 * Generated one-time passwords always satisfy it.
 */
export const PasswordSchema = z
  .string()
  .min(8, 'a password has at least 8 characters')
  .max(1024, 'a password has at most 1024 characters');

/** A user id (`usr_...`). */
export const UserIdSchema = z.string().regex(/^usr_[0-9A-Za-z]{8,64}$/, 'must be a user id (usr_...)');

/** An organization id (`org_...`). */
export const OrgIdSchema = z.string().regex(/^org_[0-9A-Za-z]{8,64}$/, 'must be an organization id (org_...)');

/** Input of `members.invite`: adds a person to the caller's organization (creating the account when the e-mail is new). */
export const InviteMemberInputSchema = z.object({
  email: EmailSchema,
  /** Display name for a new account; default: the part of the e-mail before `@`. Ignored for existing accounts. */
  name: UserNameSchema.optional(),
  role: RoleSchema,
});
/** Input of `members.invite`. */
export type InviteMemberInput = z.infer<typeof InviteMemberInputSchema>;

/** Input of `members.setRole`. */
export const SetMemberRoleInputSchema = z.object({
  userId: UserIdSchema,
  role: RoleSchema,
});
/** Input of `members.setRole`. */
export type SetMemberRoleInput = z.infer<typeof SetMemberRoleInputSchema>;

/** Input of `members.remove`. */
export const RemoveMemberInputSchema = z.object({
  userId: UserIdSchema,
});
/** Input of `members.remove`. */
export type RemoveMemberInput = z.infer<typeof RemoveMemberInputSchema>;

/** A user as other people see it (never the password hash). */
export interface PublicUser {
  id: string;
  email: string;
  name: string;
}

/** One row of `members.list`: the person, their role, and when they joined (ISO 8601). */
export interface Member {
  user: PublicUser;
  role: Role;
  joinedAt: string;
}

/** Result of `members.invite`: the member, plus the one-time password when a new account was created. */
export interface InviteMemberResult {
  user: PublicUser;
  role: Role;
  /** Present only when the account is new; shown once, never stored in plain text. */
  oneTimePassword?: string;
}
