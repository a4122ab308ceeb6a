/**
 * Organizations and their plan limits (decisions.md section 2): `free` 100 req/min and 5 projects,
 * `pro` 1,000 req/min and 100 projects, `enterprise` from the organization row or configuration.
 */
import { newId } from '@quire/shared/ids';
import type { Config } from '../env';
import type { Db } from '../db/client';
import type { EventBus } from '../events';

/** A plan name. */
export type Plan = 'free' | 'pro' | 'enterprise';

/** Limits of one organization. */
export interface PlanLimits {
  /** Requests per minute across all of the organization's keys. */
  rateLimit: number;
  /** Most projects the organization may own. */
  projectLimit: number;
}

const PLAN_LIMITS: Record<Exclude<Plan, 'enterprise'>, PlanLimits> = {
  free: { rateLimit: 100, projectLimit: 5 },
  pro: { rateLimit: 1_000, projectLimit: 100 },
};

/** The plan fields of an organization row that decide its limits. */
export interface OrgPlanFields {
  plan: string;
  rateLimit: number | null;
  projectLimit: number | null;
}

/**
 * Limits of an organization: the plan's defaults; for `enterprise`, the row's own values or
 * else `QUIRE_ENTERPRISE_RATE_LIMIT` / `QUIRE_ENTERPRISE_PROJECT_LIMIT`. Unknown plans count as free.
 */
export function planLimits(org: OrgPlanFields, config: Pick<Config, 'enterpriseRateLimit' | 'enterpriseProjectLimit'>): PlanLimits {
  if (org.plan === 'enterprise') {
    return {
      rateLimit: org.rateLimit ?? config.enterpriseRateLimit,
      projectLimit: org.projectLimit ?? config.enterpriseProjectLimit,
    };
  }
  return PLAN_LIMITS[org.plan as 'free' | 'pro'] ?? PLAN_LIMITS.free;
}

/**
 * Creates an organization (id `org_…`). Enterprise limits may be given; they are ignored for other plans.
 * @returns the new row.
 */
export async function createOrganization(
  db: Db,
  input: { name: string; plan: Plan; rateLimit?: number | null; projectLimit?: number | null },
) {
  const enterprise = input.plan === 'enterprise';
  return db.prisma.organization.create({
    data: {
      id: newId('organization'),
      name: input.name,
      plan: input.plan,
      rateLimit: enterprise ? (input.rateLimit ?? null) : null,
      projectLimit: enterprise ? (input.projectLimit ?? null) : null,
    },
  });
}

/**
 * Moves an organization to `plan` (decisions.md section 2). Enterprise limits may be given (null:
 * back to the configured defaults); other plans clear them. Announces `organization.changed` on
 * `events`, which every process hears (through Redis when the bus has a transport), so the new
 * limits apply to the next request everywhere.
 * @returns the updated row, or null when no organization has the id.
 */
export async function changeOrganizationPlan(
  deps: { db: Db; events: EventBus },
  input: { orgId: string; plan: Plan; rateLimit?: number | null; projectLimit?: number | null },
) {
  const enterprise = input.plan === 'enterprise';
  const { count } = await deps.db.prisma.organization.updateMany({
    where: { id: input.orgId },
    data: {
      plan: input.plan,
      rateLimit: enterprise ? (input.rateLimit ?? null) : null,
      projectLimit: enterprise ? (input.projectLimit ?? null) : null,
    },
  });
  if (count === 0) return null;
  deps.events.emit('organization.changed', { orgId: input.orgId });
  return deps.db.prisma.organization.findUnique({ where: { id: input.orgId } });
}
