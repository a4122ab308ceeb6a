/**
 * Who is calling, as services see it: the API key's organization, creator and permissions, or the
 * signed-in person of a tRPC session (trpc/session-auth.ts). The auth plugin (plugins/auth.ts)
 * sets it on `req.auth`; routes and procedures hand it to services.
 */
import type { KeyMode, Permission } from '@quire/shared/api/api-keys';
import type { Role } from '@quire/shared/api/members';

/** The caller of an authenticated API request. */
export interface RequestAuth {
  orgId: string;
  /** The user who created the key (calls act as that user); null when that user was deleted. */
  userId: string | null;
  /** The API key used; null for a person signed in to the desktop app (a tRPC session; see trpc/session-auth.ts). */
  keyId: string | null;
  permissions: Permission[];
  /** Set when the key is scoped to one project; every other project then answers 404. */
  projectId: string | null;
  /** `test` keys (`sk_test_`) never change a production site. */
  mode: KeyMode;
  /** The organization role of a signed-in person (a tRPC session); absent for API keys, which have permissions only. */
  role?: Role;
}
