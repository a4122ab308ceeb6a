/**
 * Organizations and their plan limits (decisions.md section 2): `free` 100 req/min and 5 projects,
 * `pro` 1,000 req/min and 100 projects, `enterprise` from the organization row or configuration.
 */
import { newId } from '@quire/shared/ids';
import type { Config } from '../env';
import type { Db } from '../db/client';

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
