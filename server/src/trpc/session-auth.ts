/**
 * A signed-in person as the services' caller: tRPC procedures act as the session's user with the
 * permissions of their organization role (`ROLE_PERMISSIONS`, decisions.md section 2), so REST keys
 * and desktop sessions pass through the same service checks.
 */
import { ROLE_PERMISSIONS } from '@quire/shared/api/members';
import type { RequestAuth } from '../access/request-auth';
import type { ResolvedSession } from '../services/sessions';

/** The {@link RequestAuth} of a session: its organization, user and role, no key, org-wide, live. */
export function sessionAuth(session: ResolvedSession): RequestAuth {
  return { orgId: session.org.id, userId: session.user.id, keyId: null, permissions: [...ROLE_PERMISSIONS[session.role]], projectId: null, mode: 'live', role: session.role };
}
