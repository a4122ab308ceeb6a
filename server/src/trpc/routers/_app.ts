import { createCallerFactory, router } from '../trpc';
import { authRouter } from './auth';
import { membersRouter } from './members';
import { lintRouter } from './lint';
import { schedulesRouter } from './schedules';
import { projectsRouter } from './projects';
import { buildsRouter } from './builds';
import { filesRouter } from './files';
import { reviewsRouter } from './reviews';
import { approvalsRouter } from './approvals';
import { syncRouter } from './sync';
import { previewsRouter } from './previews';

/**
 * The root tRPC router, served at `/trpc` (procedure paths like `/trpc/auth.signIn`).
 * One sub-router per noun; add new nouns here. The desktop app imports only `type AppRouter`.
 */
export const appRouter = router({
  auth: authRouter,
  members: membersRouter,
  lint: lintRouter,
  schedules: schedulesRouter,
  projects: projectsRouter,
  builds: buildsRouter,
  files: filesRouter,
  reviews: reviewsRouter,
  approvals: approvalsRouter,
  sync: syncRouter,
  previews: previewsRouter,
});

/** The router's type, the one edge between server and desktop (`import type { AppRouter }`). */
export type AppRouter = typeof appRouter;

/** Server-side callers for tests and in-process use: `createCaller(await createTrpcContext(app, {...}))`. */
export const createCaller = createCallerFactory(appRouter);
