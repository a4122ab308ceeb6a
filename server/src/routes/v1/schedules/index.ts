/**
 * /v1/projects/{projectId}/schedules (interface-spec.md "Collaboration", scheduled publishing;
 * decisions.md section 9): schedule a ref's production build or a review's merge at a time,
 * list (soonest first), get, and cancel. Reads need `projects:read`, changes `projects:write`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses, PaginationSchema } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { CreateScheduleBodySchema, ListSchedulesFiltersSchema, ScheduleParamsSchema, ScheduleSchema } from '@quire/shared/api/schedules';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { cancelSchedule, createSchedule, getSchedule, listSchedules, toScheduleDto, withCreators } from '../../../services/schedules';

const schedulesRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Scheduled publishing'];
  const prefix = '/projects/:projectId/schedules';

  app.post(prefix, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Schedule publishing',
      description:
        "Body {ref, at} publishes ref at `at` as a production build: the project's production branch (repoBranch; its head at that time) or a full commit SHA on it (another branch is refused with 400: its builds are previews). " +
        'Body {reviewId, at} merges the review at `at` (it must be approved by then; a merge conflict fails the schedule with its message). ' +
        '`at` is ISO 8601 with an offset (Z or ±hh:mm; without one: 400 naming at), in the future (at most a minute ago) and at most a year ahead. ' +
        'The schedule runs exactly once, as the user who made it with their organization role (a ref needs builds:write); one missed while no server ran runs at the next start and says late: true. ' +
        'Test keys are refused (403): they never change a production site. Audited as schedule.created; running as schedule.ran or schedule.failed.',
      params: ProjectParamsSchema,
      body: CreateScheduleBodySchema,
      response: { 201: dataEnvelope(ScheduleSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => {
    const row = await createSchedule(app.ctx, req.auth, req.params.projectId, req.body);
    const [withCreator] = await withCreators(app.ctx, [row]);
    return reply.code(201).send({ data: toScheduleDto(withCreator!) });
  });

  app.get(prefix, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'List schedules',
      description: 'Soonest first. Filter: status (scheduled, running, done, failed, cancelled). Pagination: page, pageSize (alias per_page; default 20, above 100 clamped).',
      params: ProjectParamsSchema,
      querystring: PageQuerySchema.extend(ListSchedulesFiltersSchema.shape),
      response: { 200: z.object({ data: z.array(ScheduleSchema), pagination: PaginationSchema }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await listSchedules(app.ctx, req.auth, req.params.projectId, req.query, page);
    return { data: items.map(toScheduleDto), pagination: pagination(page, total) };
  });

  app.get(`${prefix}/:scheduleId`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Get a schedule',
      description: 'With its status, late, ranAt, the buildId it started and the error when it failed.',
      params: ScheduleParamsSchema,
      response: { 200: dataEnvelope(ScheduleSchema), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: toScheduleDto(await getSchedule(app.ctx, req.auth, req.params.projectId, req.params.scheduleId)) }));

  app.delete(`${prefix}/:scheduleId`, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Cancel a schedule',
      description: 'A scheduled schedule becomes cancelled and never runs (204). 409 naming the state when it is already running, done, failed or cancelled. Audited as schedule.cancelled.',
      params: ScheduleParamsSchema,
      response: { 204: z.null().describe('Cancelled'), ...errorResponses(401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => {
    await cancelSchedule(app.ctx, req.auth, req.params.projectId, req.params.scheduleId);
    return reply.code(204).send(null);
  });
};
export default schedulesRoutes;
