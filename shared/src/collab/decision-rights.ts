/**
 * Who may decide a review or a deploy's approval: move a review to `approved` or
 * `changes_requested`, approve or reject a build waiting for approval. One rule for REST, tRPC and
 * the desktop's sync push (decisions.md section 2: a viewer reads, a reviewer also reviews, an editor
 * also writes; collaboration writes need `projects:write`):
 *
 * - a person decides: an API key acts as the user who created it, and a key whose user is gone decides nothing;
 * - that person's organization role as it is now (not when the key was made or the review requested)
 *   is one of {@link REVIEWING_ROLES};
 * - through an API key, the key also holds `projects:write` (a `read` or `build` key only reads and builds).
 *
 * Which of those people a gate lets approve, and the state machines' own rules (authors never approve
 * their own change), come on top (approval-status.ts, review-status.ts).
 */
import { hasPermission, type Permission } from '../api/api-keys';
import { REVIEWING_ROLES, type Role } from '../api/members';

/** The caller as the rule sees it. */
export interface DecidingCaller {
  /** The acting person (a key's creator); null when there is none. */
  userId: string | null;
  /** Their organization role now; null when they are no longer a member. */
  role: Role | null;
  /** Whether the call came with an API key (a signed-in session otherwise). */
  viaKey: boolean;
  /** The key's permissions (ignored for a session, whose role decides). */
  permissions: readonly Permission[];
}

/** Why a decision was refused: always 403 `forbidden`; `details.permission` names a missing key permission. */
export interface DecisionRefusal {
  code: 'forbidden';
  message: string;
  details?: { permission: Permission };
}

/**
 * Checks the rule of the module comment.
 * @param what what is being done, for the message (`Reviewing`, `Approving a deploy`).
 * @returns null when the caller may decide, else the refusal.
 */
export function decisionRefusal(caller: DecidingCaller, what: string): DecisionRefusal | null {
  if (caller.userId === null) return { code: 'forbidden', message: `${what} needs a person: this API key's user no longer exists.` };
  if (caller.viaKey && !hasPermission(caller.permissions, 'projects:write')) {
    return { code: 'forbidden', message: `${what} needs an API key with the "projects:write" permission.`, details: { permission: 'projects:write' } };
  }
  if (caller.role === null) return { code: 'forbidden', message: `${what} needs a member of the organization.` };
  if (!REVIEWING_ROLES.includes(caller.role)) {
    return { code: 'forbidden', message: `${what} needs the reviewer role or above; your role (${caller.role}) only reads.` };
  }
  return null;
}
