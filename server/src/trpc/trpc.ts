import { initTRPC, TRPCError } from '@trpc/server';
import { ApiError, ERROR_CATALOGUE, invalidField } from '@quire/shared/errors';
import { MEMBER_MANAGER_ROLES } from '@quire/shared/api/members';
import { hasPermission, type Permission } from '@quire/shared/api/api-keys';
import { sessionAuth } from './session-auth';
import type { TrpcContext } from './context';
import { apiCodeOf, apiDetailsOf, toTrpcError } from './errors';
import { findUnstorableText } from '@quire/shared/text';
import { fieldPath } from '@quire/shared/api/invalid-input';
import { isId } from '@quire/shared/ids';
import { getProjectForCaller } from '../services/projects';

/** One validation problem of a procedure's input: dotted field path and message. */
export interface TrpcInputIssue {
  field: string;
  message: string;
}

function inputIssues(cause: unknown): TrpcInputIssue[] | undefined {
  const issues = (cause as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues)) return undefined;
  return issues.map((issue: { path?: readonly (PropertyKey | { key: PropertyKey })[]; message?: string }) => ({
    field: fieldPath((issue.path ?? []).map((p) => (typeof p === 'object' ? p.key : p))),
    message: issue.message ?? 'invalid',
  }));
}

/**
 * The tRPC instance. Errors use tRPC's envelope, with three additions under `data`:
 * `apiCode` (the catalogue code, e.g. `conflict`) and `details` (the REST envelope's
 * `error.details`, e.g. a merge conflict's `paths`) when a service raised an `ApiError`, and
 * `issues` (`[{field, message}]`) when the input failed validation. Stack traces are never sent,
 * and internal errors carry only the catalogue's generic message.
 */
const t = initTRPC.context<TrpcContext>().create({
  isDev: false,
  errorFormatter({ shape, error }) {
    const internal = error.code === 'INTERNAL_SERVER_ERROR';
    return {
      ...shape,
      message: internal ? ERROR_CATALOGUE.internal_error.message : shape.message,
      data: {
        ...shape.data,
        apiCode: apiCodeOf(error) ?? null,
        details: internal ? null : (apiDetailsOf(error) ?? null),
        issues: error.code === 'BAD_REQUEST' ? (inputIssues(error.cause) ?? null) : null,
      },
    };
  },
});

/** Re-raises a service's `ApiError` as the matching `TRPCError` (see ./errors). */
const apiErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof ApiError) throw toTrpcError(result.error.cause);
  return result;
});

/**
 * Refuses input holding text no database can store (NUL, lone surrogates; shared/src/text.ts) with
 * BAD_REQUEST and `apiCode: invalid_request`, the message naming the field, before any procedure
 * runs: the tRPC side of plugins/stored-text.ts.
 */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const found = findUnstorableText(await getRawInput());
  if (found) throw toTrpcError(invalidField(found.path || 'input', found.issue));
  return next();
});

/** Builds routers. */
export const router = t.router;
/** Builds a server-side caller factory from a router (`createCallerFactory(appRouter)(ctx)`). */
export const createCallerFactory = t.createCallerFactory;

/** A procedure anyone may call (signing in). */
export const publicProcedure = t.procedure.use(apiErrors).use(storableInput);

/** A procedure for signed-in callers; `ctx.session` is non-null inside. @throws UNAUTHORIZED otherwise. */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in first: send Authorization: Bearer <session token>.' });
  return next({ ctx: { ...ctx, session: ctx.session } });
});

/** A procedure for owners and admins of the session's organization. @throws FORBIDDEN for other roles. */
export const managerProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!MEMBER_MANAGER_ROLES.includes(ctx.session.role)) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Only owners and admins can manage members.' });
  }
  return next();
});

/** The project a procedure's raw (unparsed) input names: its `projectId` when that is a well-formed project id. */
function namedProject(raw: unknown): string | undefined {
  const projectId = raw !== null && typeof raw === 'object' ? (raw as { projectId?: unknown }).projectId : undefined;
  return typeof projectId === 'string' && isId('project', projectId) ? projectId : undefined;
}

/**
 * A procedure for signed-in callers whose role grants `permission` (`ROLE_PERMISSIONS`); inside,
 * `ctx.auth` is the session as the services' caller (session-auth.ts), so procedures call the same
 * services as the REST routes. Both checks run before the input is parsed (`.input()` comes after
 * this middleware): the role (FORBIDDEN), then the project the input's `projectId` names, as the
 * REST API's resource gate does (plugins/resource-gate.ts; decisions.md section 10): another
 * organization's project is NOT_FOUND whatever the rest of the input, never BAD_REQUEST.
 * @throws FORBIDDEN naming the role and the permission; NOT_FOUND (`apiCode: not_found`) for a project the caller cannot see.
 */
export function permittedProcedure(permission: Permission) {
  return authedProcedure.use(async ({ ctx, next, getRawInput }) => {
    const auth = sessionAuth(ctx.session);
    if (!hasPermission(auth.permissions, permission)) {
      throw new TRPCError({ code: 'FORBIDDEN', message: `Your role (${ctx.session.role}) cannot do this: it needs "${permission}".` });
    }
    const projectId = namedProject(await getRawInput());
    if (projectId !== undefined) await getProjectForCaller(ctx.app, auth, projectId);
    return next({ ctx: { ...ctx, auth } });
  });
}
