/**
 * The core's one tRPC instance and the inputs its routers share (router.ts and the feature routers
 * beside it build on these), so every procedure validates a project id, a repository path and a
 * page's text by the same rules.
 */
import { initTRPC } from '@trpc/server';
import { z } from 'zod';
import { normaliseChangePath } from '@quire/shared/collab/change-set';
import type { Core } from './core';

/** The core's tRPC context: the one core of the process. */
export interface CoreContext {
  core: Core;
}

/** The tRPC instance of the core's routers. */
export const t = initTRPC.context<CoreContext>().create({ isDev: false });

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
