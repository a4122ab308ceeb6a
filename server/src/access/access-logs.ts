/**
 * `GET /access-logs` (interface-spec.md "Collaboration", Access control; decisions.md section 9:
 * "`/access-logs` records denials"): the denied site requests of a project, newest first, filtered
 * by reason and time, each with the rule, allowlist or preview link that refused (named while it
 * still exists). Written by access/denial-log.ts.
 */
import type { AccessLogEntry, AccessLogFilters, DecidingRuleType } from '@quire/shared/api/access';
import type { Prisma } from '../db/generated/client';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import type { RequestAuth } from './request-auth';
import type { PageRequest } from '@quire/shared/api/common';
import { getProjectForCaller } from '../services/projects';
import { accessState } from './access-state';

/** What an id's prefix says it names (ids: shared/src/ids.ts). */
const RULE_TYPES: Record<string, DecidingRuleType> = { acr: 'access_rule', ipl: 'ip_allowlist', pvl: 'preview_link' };

function ruleTypeOf(id: string): DecidingRuleType | null {
  return RULE_TYPES[id.slice(0, id.indexOf('_'))] ?? null;
}

/** Current names of the rules, allowlists and preview links `ids` name (deleted ones are absent). */
async function namesOf(ctx: AppContext, projectId: string, ids: string[]): Promise<Map<string, string>> {
  const byType = (type: DecidingRuleType) => ids.filter((id) => ruleTypeOf(id) === type);
  const [rules, lists, links] = await Promise.all([
    byType('access_rule').length ? ctx.db.prisma.accessRule.findMany({ where: { projectId, id: { in: byType('access_rule') } }, select: { id: true, name: true } }) : [],
    byType('ip_allowlist').length ? ctx.db.prisma.ipAllowlist.findMany({ where: { projectId, id: { in: byType('ip_allowlist') } }, select: { id: true, name: true } }) : [],
    byType('preview_link').length
      ? ctx.db.prisma.previewLink.findMany({ where: { projectId, id: { in: byType('preview_link') } }, select: { id: true, label: true, previewName: true } })
      : [],
  ]);
  return new Map([
    ...rules.map((r) => [r.id, r.name] as const),
    ...lists.map((l) => [l.id, l.name] as const),
    ...links.map((l) => [l.id, l.label ?? l.previewName] as const),
  ]);
}

function toEntry(row: Models.AccessLogModel, names: Map<string, string>): AccessLogEntry {
  const type = row.ruleId ? ruleTypeOf(row.ruleId) : null;
  return {
    id: row.id,
    host: row.host,
    path: row.path,
    ip: row.ip,
    reason: row.reason as AccessLogEntry['reason'],
    rule: row.ruleId && type ? { id: row.ruleId, type, name: names.get(row.ruleId) ?? null } : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * One page of the project's denials, newest first (ties by id). This process's buffered denials are
 * written first, so its own latest ones are listed; those of other processes appear once written
 * (within a second).
 * @param filters `reason`; `from`/`to` bound `createdAt` inclusively.
 * @throws ApiError not_found (project unknown or not the caller's).
 */
export async function listAccessLogs(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  filters: AccessLogFilters,
  page: PageRequest,
): Promise<{ items: AccessLogEntry[]; total: number }> {
  await getProjectForCaller(ctx, auth, projectId);
  await accessState(ctx).denials.flush();
  const where: Prisma.AccessLogWhereInput = {
    projectId,
    ...(filters.reason ? { reason: filters.reason } : {}),
    ...(filters.from || filters.to ? { createdAt: { ...(filters.from ? { gte: filters.from } : {}), ...(filters.to ? { lte: filters.to } : {}) } } : {}),
  };
  const [rows, total] = await Promise.all([
    ctx.db.prisma.accessLog.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: page.skip, take: page.take }),
    ctx.db.prisma.accessLog.count({ where }),
  ]);
  const names = await namesOf(ctx, projectId, [...new Set(rows.flatMap((r) => (r.ruleId ? [r.ruleId] : [])))]);
  return { items: rows.map((row) => toEntry(row, names)), total };
}
