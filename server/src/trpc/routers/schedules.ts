import { z } from 'zod';
import { CreateScheduleBodySchema, ListSchedulesFiltersSchema, type Schedule } from '@quire/shared/api/schedules';
import type { Pagination } from '@quire/shared/api/common';
import { PageQuerySchema, pagination, resolvePage } from '../../http/pagination';
import { cancelSchedule, createSchedule, getSchedule, listSchedules, toScheduleDto, withCreators } from '../../services/schedules';
import { permittedProcedure, router } from '../trpc';

const ProjectInput = z.object({ projectId: z.string().max(64) });
const ScheduleInput = ProjectInput.extend({ scheduleId: z.string().max(64) });

const reader = permittedProcedure('projects:read');
const writer = permittedProcedure('projects:write');

/**
 * `schedules`: scheduled publishing for the desktop app (the REST routes' twins, same service and
 * rules; decisions.md section 9). An unknown or foreign project or schedule is NOT_FOUND; reads
 * need a role that reads, changes an editor, admin or owner (FORBIDDEN otherwise). A schedule
 * made here runs as the session's user.
 * - `list({projectId, status?, page?, pageSize?})` → `{data, pagination}`, soonest first.
 * - `get({projectId, scheduleId})` → the schedule.
 * - `create({projectId, ref | reviewId, at})` → the schedule (`at`: ISO 8601 with an offset).
 * - `cancel({projectId, scheduleId})` → nothing; CONFLICT naming the state once it ran or was cancelled.
 */
export const schedulesRouter = router({
  list: reader
    .input(ProjectInput.extend(ListSchedulesFiltersSchema.shape).extend(PageQuerySchema.shape))
    .query(async ({ ctx, input }): Promise<{ data: Schedule[]; pagination: Pagination }> => {
      const page = resolvePage(input);
      const { items, total } = await listSchedules(ctx.app, ctx.auth, input.projectId, input, page);
      return { data: items.map(toScheduleDto), pagination: pagination(page, total) };
    }),
  get: reader
    .input(ScheduleInput)
    .query(async ({ ctx, input }): Promise<Schedule> => toScheduleDto(await getSchedule(ctx.app, ctx.auth, input.projectId, input.scheduleId))),
  create: writer.input(z.intersection(ProjectInput, CreateScheduleBodySchema)).mutation(async ({ ctx, input }): Promise<Schedule> => {
    const { projectId, ...body } = input;
    const row = await createSchedule(ctx.app, ctx.auth, projectId, body);
    return toScheduleDto((await withCreators(ctx.app, [row]))[0]!);
  }),
  cancel: writer.input(ScheduleInput).mutation(({ ctx, input }): Promise<void> => cancelSchedule(ctx.app, ctx.auth, input.projectId, input.scheduleId)),
});
