/**
 * Monthly plan limits (decisions.md section 2; interface-spec.md error `usage_limit_exceeded`):
 * the metered metrics, their limits per plan, the calendar-month period in UTC and the shape of
 * `GET /v1/usage`.
 */
import { z } from 'zod';
import { TimestampSchema, dataEnvelope } from './common';

/** What is metered per organization and month: builds triggered; assistant answers (counted once the assistant exists). */
export const USAGE_METRICS = ['builds', 'assistant_answers'] as const;
export const UsageMetricSchema = z.enum(USAGE_METRICS);
export type UsageMetric = z.infer<typeof UsageMetricSchema>;

/** Monthly limits of the fixed plans (decisions.md section 2); enterprise limits come from configuration. */
export const MONTHLY_LIMITS: Record<'free' | 'pro', Record<UsageMetric, number>> = {
  free: { builds: 100, assistant_answers: 200 },
  pro: { builds: 2_000, assistant_answers: 10_000 },
};

/** A calendar month in UTC: its `YYYY-MM` name and the instant the next one starts. */
export interface UsagePeriod {
  period: string;
  resetsAt: Date;
}

/** The UTC calendar month containing `now`. */
export function usagePeriodOf(now: Date): UsagePeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return { period: `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}`, resetsAt: new Date(Date.UTC(year, month + 1, 1)) };
}

/** One metric of `GET /v1/usage`. */
export const UsageMetricStatusSchema = z.object({
  metric: UsageMetricSchema,
  used: z.number().int().min(0).describe('Counted this period'),
  limit: z.number().int().min(0).describe('Most allowed this period by the plan'),
});

/** `GET /v1/usage`: the caller's organization, this calendar month (UTC). */
export const UsageSchema = z.object({
  period: z.string().describe('Calendar month in UTC, YYYY-MM'),
  resetsAt: TimestampSchema.describe('When the counts start again from 0 (start of the next month, UTC)'),
  metrics: z.array(UsageMetricStatusSchema),
});
export type Usage = z.infer<typeof UsageSchema>;

export const UsageResponseSchema = dataEnvelope(UsageSchema);

/** `details` of a 403 `usage_limit_exceeded`. */
export interface UsageLimitDetails {
  metric: UsageMetric;
  limit: number;
  used: number;
  /** ISO 8601 start of the next period. */
  resetsAt: string;
}
