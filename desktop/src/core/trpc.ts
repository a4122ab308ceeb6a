/**
 * The core's one tRPC instance and the inputs its routers share (router.ts and the feature routers
 * beside it build on these), so every procedure validates a project id, a repository path and a
 * page's text by the same rules.
 */
import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { z } from 'zod';
import { normaliseChangePath } from '@quire/shared/collab/change-set';
import type { DesktopCore } from './compose';
import { CoreError, type CoreErrorCode } from './core-error';

/** The core's tRPC context: the services of the process, built once by `createCore` (compose.ts). */
export type CoreContext = DesktopCore;

/** The tRPC instance of the core's routers. */
export const t = initTRPC.context<CoreContext>().create({ isDev: false });

/** The tRPC code of each core error code (`UNAVAILABLE`: the upstream Quire server failed, HTTP 502). */
const TRPC_CODE: Record<CoreErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PRECONDITION_FAILED: 'PRECONDITION_FAILED',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  UNAVAILABLE: 'BAD_GATEWAY',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
};

/** The one place a {@link CoreError} becomes a tRPC error: its code mapped by {@link TRPC_CODE}, its message kept. */
const coreErrors = t.middleware(async ({ next }) => {
  const result = await next();
  const cause = result.ok ? null : result.error.cause;
  if (cause instanceof CoreError) throw new TRPCError({ code: TRPC_CODE[cause.code], message: cause.message, cause });
  return result;
});

/** The base procedure of every core router: core errors reach the renderer as tRPC errors with the same message. */
export const procedure = t.procedure.use(coreErrors);

/** A project id (a server project's `prj_…`, or a local folder's `local:…`). */
export const ProjectId = z.string().min(1).max(64);

/**
 * A repository path as the shared change-set rule writes it (shared/src/collab/change-set.ts):
 * relative, `/`-separated, no `.`/`..`/`.git` segment, no control characters.
 */
export const FilePath = z
  .string()
  .min(1)
  .max(1024)
  .refine((p) => {
    const checked = normaliseChangePath(p);
    return checked.ok && checked.path === p;
  }, 'must be a repository path inside the project (relative, "/"-separated, no "..")');

/** A page's text, at most 5 MiB. */
export const Text = z.string().max(5 * 1024 * 1024);
