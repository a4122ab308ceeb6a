import { z } from 'zod';
import type { Project } from '@quire/shared/api/projects';
import { resolvePage } from '../../http/pagination';
import { getProjectForCaller, listProjects, toProjectDto } from '../../services/projects';
import { permittedProcedure, router } from '../trpc';

const reader = permittedProcedure('projects:read');

/** One page of projects, with the total for paging. */
export interface ProjectPage {
  items: Project[];
  total: number;
}

/**
 * `projects`: the projects of the signed-in user's organization, for the desktop app's workspace
 * (the twins of `GET /v1/projects` and `GET /v1/projects/{projectId}`; every role reads them).
 * - `list({page?, pageSize?})` → `{items, total}`, newest first (page size at most 100).
 * - `get({projectId})` → the project; NOT_FOUND for an unknown or foreign one.
 */
export const projectsRouter = router({
  list: reader
    .input(z.object({ page: z.number().int().min(1).default(1), pageSize: z.number().int().min(1).max(100).default(100) }).default({ page: 1, pageSize: 100 }))
    .query(async ({ ctx, input }): Promise<ProjectPage> => {
      const { items, total } = await listProjects(ctx.app, ctx.auth, resolvePage({ page: input.page, pageSize: input.pageSize }));
      return { items: items.map((p) => toProjectDto(p, ctx.app.config)), total };
    }),
  get: reader
    .input(z.object({ projectId: z.string().max(64) }))
    .query(async ({ ctx, input }): Promise<Project> => toProjectDto(await getProjectForCaller(ctx.app, ctx.auth, input.projectId), ctx.app.config)),
});
