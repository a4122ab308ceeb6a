/**
 * Scheduled publishing (interface-spec.md "Collaboration": `GET, POST /schedules`,
 * `DELETE /schedules/{scheduleId}`; decisions.md section 9: "Schedules publish a ref or a review's
 * merge at a time, exactly once"). The payloads are Quire's own and are written into the OpenAPI
 * document from these schemas.
 */
import { z } from 'zod';
import { TimestampSchema } from './common';
import { BRANCH_MAX_LENGTH, checkBranchName, checkCommitSha } from '../repo/git-ref';

/** Statuses of a schedule: `scheduled` → `running` → `done` | `failed`, or `scheduled` → `cancelled`. */
export const SCHEDULE_STATUSES = ['scheduled', 'running', 'done', 'failed', 'cancelled'] as const;
export const ScheduleStatusSchema = z.enum(SCHEDULE_STATUSES);
export type ScheduleStatus = z.infer<typeof ScheduleStatusSchema>;

/** What a schedule does when due: build a ref for production, or merge a review. */
export const ScheduleKindSchema = z.enum(['ref', 'review']);
export type ScheduleKind = z.infer<typeof ScheduleKindSchema>;

/** Longest a schedule may lie ahead, in ms (365 days). */
export const SCHEDULE_MAX_AHEAD_MS = 365 * 24 * 60 * 60 * 1000;
/** How far in the past `at` may be on creation (clock skew of the caller), in ms; such a schedule runs at once. */
export const SCHEDULE_PAST_TOLERANCE_MS = 60 * 1000;
/** A schedule that ran more than this after its time (ms) is `late` (missed while no server ran). */
export const SCHEDULE_LATE_AFTER_MS = 60 * 1000;

/** A 40 or 64 hex digit string, any case: a commit id rather than a branch name. */
const HEX_SHA = /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;

/**
 * A ref to publish: a full commit SHA (40 or 64 hex digits, lower-cased) or a branch name, checked
 * with the shared rules of `../repo/git-ref` (decisions.md section 10: refs are validated).
 */
export const ScheduleRefSchema = z
  .string()
  .min(1)
  .max(BRANCH_MAX_LENGTH)
  .transform((ref) => (HEX_SHA.test(ref) ? ref.toLowerCase() : ref))
  .superRefine((ref, ctx) => {
    const check = HEX_SHA.test(ref) ? checkCommitSha(ref) : checkBranchName(ref);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.issue });
  })
  .describe("The project's production branch (its head when the schedule runs) or a full commit SHA");

/** True when a (validated) ref names a commit rather than a branch. */
export function isCommitRef(ref: string): boolean {
  return HEX_SHA.test(ref);
}

/** `at`: ISO 8601 with an offset (`Z` or `±hh:mm`); a local time without one is refused. */
export const ScheduleAtSchema = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date and time with an offset, e.g. 2026-05-01T09:00:00+02:00' })
  .describe('When to run: ISO 8601 with an offset (Z or ±hh:mm), in the future (at most a minute ago) and at most a year ahead');

/**
 * `POST /schedules`: `{ref, at}` (publish the ref as a production build at `at`) or `{reviewId, at}`
 * (merge the review at `at`). Exactly one of `ref` and `reviewId`.
 */
export const CreateScheduleBodySchema = z
  .object({
    ref: ScheduleRefSchema.optional(),
    reviewId: z.string().min(1).max(64).optional().describe('rev_<id>: merge this review at `at` (it must be approved by then)'),
    at: ScheduleAtSchema,
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.ref === undefined) === (body.reviewId === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['ref'], message: 'give exactly one of ref and reviewId' });
    }
  });
export type CreateScheduleBody = z.infer<typeof CreateScheduleBodySchema>;

/** The user who made a schedule (empty strings once that account was deleted); the schedule acts as them. */
const ScheduleUserSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });

/** A schedule as returned. */
export const ScheduleSchema = z.object({
  id: z.string().describe('sch_<id>'),
  kind: ScheduleKindSchema,
  ref: z.string().optional().describe('kind ref: the branch or commit to publish'),
  reviewId: z.string().optional().describe('kind review: the review to merge'),
  at: TimestampSchema.describe('When it is due (UTC)'),
  status: ScheduleStatusSchema,
  late: z.boolean().describe('It ran more than a minute after `at` (missed while no server ran, or queued behind another build)'),
  ranAt: TimestampSchema.nullable().describe('When it started running'),
  buildId: z.string().nullable().describe('The production build it started'),
  error: z.string().nullable().describe('Why it failed'),
  createdBy: ScheduleUserSchema,
  createdAt: TimestampSchema,
});
export type Schedule = z.infer<typeof ScheduleSchema>;

/** Filters of `GET /schedules` (pagination members come from the server's page query). */
export const ListSchedulesFiltersSchema = z.object({ status: ScheduleStatusSchema.optional() });
export type ListSchedulesFilters = z.infer<typeof ListSchedulesFiltersSchema>;

/** Path parameters of one schedule. */
export const ScheduleParamsSchema = z.object({ projectId: z.string().min(1).max(100), scheduleId: z.string().min(1).max(100).describe('sch_<id>') });
