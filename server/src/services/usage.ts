/**
 * Monthly plan limits (decisions.md section 2): metered actions per organization and calendar
 * month (UTC), counted in `UsageCounter` rows. A metered action calls {@link consumeUsage} inside
 * its own transaction, before it writes anything else: the count goes up by one only while it is
 * below the limit (one conditional `UPDATE`, atomic on SQLite and PostgreSQL, so several server
 * processes never let more through than the limit), and rolls back with the action.
 */
import { ApiError } from '@quire/shared/errors';
import { MONTHLY_LIMITS, USAGE_METRICS, usagePeriodOf, type Usage, type UsageLimitDetails, type UsageMetric } from '@quire/shared/api/usage';
import type { AppContext } from '../context';
import type { Config } from '../env';
import type { DbClient } from './audit';

/** Configuration read for the enterprise plan's limits. */
export type UsageConfig = Pick<Config, 'enterpriseMonthlyBuilds' | 'enterpriseMonthlyAnswers'>;

/**
 * Monthly limit of `metric` for an organization on `plan`: the fixed plans' limits
 * ({@link MONTHLY_LIMITS}), enterprise from `QUIRE_ENTERPRISE_MONTHLY_BUILDS` /
 * `QUIRE_ENTERPRISE_MONTHLY_ANSWERS`. Unknown plans count as free.
 */
export function monthlyLimit(plan: string, metric: UsageMetric, config: UsageConfig): number {
  if (plan === 'enterprise') return metric === 'builds' ? config.enterpriseMonthlyBuilds : config.enterpriseMonthlyAnswers;
  return (MONTHLY_LIMITS[plan as 'free' | 'pro'] ?? MONTHLY_LIMITS.free)[metric];
}

/**
 * Counts one use of `metric` for organization `org` this month, inside the caller's transaction
 * `tx` (commit or roll back with the action it meters).
 * @throws ApiError `usage_limit_exceeded` (403) with `details: {metric, limit, used, resetsAt}`
 *   when the month's count has reached the plan's limit; nothing is counted then.
 */
export async function consumeUsage(tx: DbClient, config: UsageConfig, org: { id: string; plan: string }, metric: UsageMetric, now = new Date()): Promise<void> {
  const { period, resetsAt } = usagePeriodOf(now);
  const limit = monthlyLimit(org.plan, metric, config);
  // Create the month's row if missing without failing the transaction when another process just did.
  await tx.$executeRaw`INSERT INTO "UsageCounter" ("orgId", "metric", "period", "count") VALUES (${org.id}, ${metric}, ${period}, 0) ON CONFLICT ("orgId", "metric", "period") DO NOTHING`;
  const { count } = await tx.usageCounter.updateMany({
    where: { orgId: org.id, metric, period, count: { lt: limit } },
    data: { count: { increment: 1 } },
  });
  if (count === 1) return;
  const row = await tx.usageCounter.findUnique({ where: { orgId_metric_period: { orgId: org.id, metric, period } }, select: { count: true } });
  const details: UsageLimitDetails = { metric, limit, used: row?.count ?? limit, resetsAt: resetsAt.toISOString() };
  throw new ApiError(
    'usage_limit_exceeded',
    `The ${org.plan} plan allows ${limit} ${metric.replace('_', ' ')} per month; ${details.used} used. The count resets at ${details.resetsAt}.`,
    { ...details },
  );
}

/**
 * This month's use and limit of every metric for organization `orgId` (`GET /v1/usage`).
 * @throws ApiError not_found when the organization does not exist (its key outlived it).
 */
export async function getUsage(ctx: Pick<AppContext, 'db' | 'config'>, orgId: string, now = new Date()): Promise<Usage> {
  const { period, resetsAt } = usagePeriodOf(now);
  const [org, rows] = await Promise.all([
    ctx.db.prisma.organization.findUnique({ where: { id: orgId }, select: { plan: true } }),
    ctx.db.prisma.usageCounter.findMany({ where: { orgId, period }, select: { metric: true, count: true } }),
  ]);
  if (!org) throw new ApiError('not_found', `No organization ${orgId}.`);
  const used = new Map(rows.map((r) => [r.metric, r.count]));
  return {
    period,
    resetsAt: resetsAt.toISOString(),
    metrics: USAGE_METRICS.map((metric) => ({ metric, used: used.get(metric) ?? 0, limit: monthlyLimit(org.plan, metric, ctx.config) })),
  };
}
