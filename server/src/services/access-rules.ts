/**
 * Access rules and IP allowlists of a project (interface-spec.md "Collaboration", Access control:
 * `/access-rules`, `/ip-allowlists`; decisions.md section 9: they "restrict who may read which paths
 * of a site"; section 2: every route needs `admin`). Shapes and validation (globs, CIDR ranges, "a
 * rule names at least one audience or range") live in `@quire/shared/api/access`; how the site
 * applies them in access/policy.ts. Every change is audited in its transaction
 * (`access_rule.created|updated|deleted`, `ip_allowlist.created|updated|deleted`) and announced
 * as `access.changed` once committed, so every process's policy cache drops the project at once.
 */
import { ApiError, invalidField } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import {
  MAX_ACCESS_RULES,
  type AccessRule,
  type AccessRuleBody,
  type AccessRulePatch,
  type IpAllowlist,
  type IpAllowlistBody,
  type IpAllowlistPatch,
} from '@quire/shared/api/access';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import type { RequestAuth } from '../access/request-auth';
import { parseStringList } from '../db/json-columns';
import { lockKey } from '../db/locks';
import { recordAudit } from './audit';
import { getProjectForCaller } from './projects';

type RuleRow = Models.AccessRuleModel;
type AllowlistRow = Models.IpAllowlistModel;

const list = (json: string): string[] => parseStringList(json) ?? [];
const ORDER = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];

/** The REST form of a rule. */
export function toAccessRuleDto(row: RuleRow): AccessRule {
  return {
    id: row.id,
    name: row.name,
    pathPattern: row.pathPattern,
    audiences: list(row.audiences),
    cidrs: list(row.cidrs),
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The REST form of an allowlist. */
export function toIpAllowlistDto(row: AllowlistRow): IpAllowlist {
  return {
    id: row.id,
    name: row.name,
    cidrs: list(row.cidrs),
    paths: list(row.paths),
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The names of the members a patch changes, for the audit entry. */
function changedFields(patch: object): string[] {
  return Object.entries(patch)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
}

/** 409 when the project already has the most rules (or allowlists) allowed. */
function tooMany(kind: string): ApiError {
  return new ApiError('conflict', `A project has at most ${MAX_ACCESS_RULES} ${kind}; delete one first.`, { limit: MAX_ACCESS_RULES });
}

/** Tells every process's policy cache (access/policy-cache.ts) that the project's rules changed. */
function announce(ctx: AppContext, projectId: string): void {
  ctx.events.emit('access.changed', { projectId });
}

// ---------------------------------------------------------------------------------------------
// Access rules
// ---------------------------------------------------------------------------------------------

/** The project's access rules, oldest first. @throws ApiError not_found (project unknown or not the caller's). */
export async function listAccessRules(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<AccessRule[]> {
  await getProjectForCaller(ctx, auth, projectId);
  return (await ctx.db.prisma.accessRule.findMany({ where: { projectId }, orderBy: ORDER })).map(toAccessRuleDto);
}

/**
 * Adds a rule (body validated by `AccessRuleBodySchema`); audited as `access_rule.created`.
 * @throws ApiError not_found; conflict when the project has {@link MAX_ACCESS_RULES} rules.
 */
export async function createAccessRule(ctx: AppContext, auth: RequestAuth, projectId: string, body: AccessRuleBody): Promise<AccessRule> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    await lockKey(tx, ctx.db.provider, `access-rules:${projectId}`);
    if ((await tx.accessRule.count({ where: { projectId } })) >= MAX_ACCESS_RULES) throw tooMany('access rules');
    const created = await tx.accessRule.create({
      data: {
        id: newId('accessRule'),
        projectId,
        name: body.name,
        pathPattern: body.pathPattern,
        audiences: JSON.stringify(body.audiences),
        cidrs: JSON.stringify(body.cidrs),
        enabled: body.enabled,
      },
    });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'access_rule.created',
      resource: { type: 'access_rule', id: created.id, name: created.name },
      metadata: { pathPattern: body.pathPattern, audiences: body.audiences, cidrs: body.cidrs, enabled: body.enabled },
    });
    return created;
  });
  announce(ctx, projectId);
  return toAccessRuleDto(row);
}

/**
 * Changes the given fields of a rule; audited as `access_rule.updated` with the changed field names.
 * @throws ApiError not_found (project or rule); invalid_request naming `audiences` when the result
 *   would name neither an audience nor a range.
 */
export async function updateAccessRule(ctx: AppContext, auth: RequestAuth, projectId: string, ruleId: string, patch: AccessRulePatch): Promise<AccessRule> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    await lockKey(tx, ctx.db.provider, `access-rules:${projectId}`);
    const before = await tx.accessRule.findFirst({ where: { id: ruleId, projectId } });
    if (!before) throw new ApiError('not_found', `No access rule ${ruleId} in this project.`);
    const audiences = patch.audiences ?? list(before.audiences);
    const cidrs = patch.cidrs ?? list(before.cidrs);
    if (audiences.length + cidrs.length === 0) throw invalidField('audiences', 'name at least one audience or one CIDR range', 'audiences: a rule must name at least one audience or one CIDR range (cidrs).');
    const updated = await tx.accessRule.update({
      where: { id: ruleId },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.pathPattern !== undefined ? { pathPattern: patch.pathPattern } : {}),
        ...(patch.audiences !== undefined ? { audiences: JSON.stringify(patch.audiences) } : {}),
        ...(patch.cidrs !== undefined ? { cidrs: JSON.stringify(patch.cidrs) } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      },
    });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'access_rule.updated',
      resource: { type: 'access_rule', id: ruleId, name: updated.name },
      metadata: { changes: changedFields(patch) },
    });
    return updated;
  });
  announce(ctx, projectId);
  return toAccessRuleDto(row);
}

/** Deletes a rule; audited as `access_rule.deleted`. @throws ApiError not_found. */
export async function deleteAccessRule(ctx: AppContext, auth: RequestAuth, projectId: string, ruleId: string): Promise<void> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  await ctx.db.prisma.$transaction(async (tx) => {
    const row = await tx.accessRule.findFirst({ where: { id: ruleId, projectId } });
    if (!row) throw new ApiError('not_found', `No access rule ${ruleId} in this project.`);
    await tx.accessRule.delete({ where: { id: ruleId } });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'access_rule.deleted',
      resource: { type: 'access_rule', id: ruleId, name: row.name },
      metadata: { pathPattern: row.pathPattern },
    });
  });
  announce(ctx, projectId);
}

// ---------------------------------------------------------------------------------------------
// IP allowlists
// ---------------------------------------------------------------------------------------------

/** The project's IP allowlists, oldest first. @throws ApiError not_found. */
export async function listIpAllowlists(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<IpAllowlist[]> {
  await getProjectForCaller(ctx, auth, projectId);
  return (await ctx.db.prisma.ipAllowlist.findMany({ where: { projectId }, orderBy: ORDER })).map(toIpAllowlistDto);
}

/** One allowlist. @throws ApiError not_found. */
export async function getIpAllowlist(ctx: AppContext, auth: RequestAuth, projectId: string, allowlistId: string): Promise<IpAllowlist> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.ipAllowlist.findFirst({ where: { id: allowlistId, projectId } });
  if (!row) throw new ApiError('not_found', `No IP allowlist ${allowlistId} in this project.`);
  return toIpAllowlistDto(row);
}

/** One rule. @throws ApiError not_found. */
export async function getAccessRule(ctx: AppContext, auth: RequestAuth, projectId: string, ruleId: string): Promise<AccessRule> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.accessRule.findFirst({ where: { id: ruleId, projectId } });
  if (!row) throw new ApiError('not_found', `No access rule ${ruleId} in this project.`);
  return toAccessRuleDto(row);
}

/**
 * Adds an allowlist (body validated by `IpAllowlistBodySchema`); audited as `ip_allowlist.created`.
 * @throws ApiError not_found; conflict when the project has {@link MAX_ACCESS_RULES} allowlists.
 */
export async function createIpAllowlist(ctx: AppContext, auth: RequestAuth, projectId: string, body: IpAllowlistBody): Promise<IpAllowlist> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    await lockKey(tx, ctx.db.provider, `ip-allowlists:${projectId}`);
    if ((await tx.ipAllowlist.count({ where: { projectId } })) >= MAX_ACCESS_RULES) throw tooMany('IP allowlists');
    const created = await tx.ipAllowlist.create({
      data: { id: newId('ipAllowlist'), projectId, name: body.name, cidrs: JSON.stringify(body.cidrs), paths: JSON.stringify(body.paths), enabled: body.enabled },
    });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'ip_allowlist.created',
      resource: { type: 'ip_allowlist', id: created.id, name: created.name },
      metadata: { cidrs: body.cidrs, paths: body.paths, enabled: body.enabled },
    });
    return created;
  });
  announce(ctx, projectId);
  return toIpAllowlistDto(row);
}

/** Changes the given fields of an allowlist; audited as `ip_allowlist.updated`. @throws ApiError not_found. */
export async function updateIpAllowlist(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  allowlistId: string,
  patch: IpAllowlistPatch,
): Promise<IpAllowlist> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    const before = await tx.ipAllowlist.findFirst({ where: { id: allowlistId, projectId }, select: { id: true } });
    if (!before) throw new ApiError('not_found', `No IP allowlist ${allowlistId} in this project.`);
    const updated = await tx.ipAllowlist.update({
      where: { id: allowlistId },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.cidrs !== undefined ? { cidrs: JSON.stringify(patch.cidrs) } : {}),
        ...(patch.paths !== undefined ? { paths: JSON.stringify(patch.paths) } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      },
    });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'ip_allowlist.updated',
      resource: { type: 'ip_allowlist', id: allowlistId, name: updated.name },
      metadata: { changes: changedFields(patch) },
    });
    return updated;
  });
  announce(ctx, projectId);
  return toIpAllowlistDto(row);
}

/** Deletes an allowlist; audited as `ip_allowlist.deleted`. @throws ApiError not_found. */
export async function deleteIpAllowlist(ctx: AppContext, auth: RequestAuth, projectId: string, allowlistId: string): Promise<void> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  await ctx.db.prisma.$transaction(async (tx) => {
    const row = await tx.ipAllowlist.findFirst({ where: { id: allowlistId, projectId } });
    if (!row) throw new ApiError('not_found', `No IP allowlist ${allowlistId} in this project.`);
    await tx.ipAllowlist.delete({ where: { id: allowlistId } });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'ip_allowlist.deleted',
      resource: { type: 'ip_allowlist', id: allowlistId, name: row.name },
      metadata: { cidrs: list(row.cidrs) },
    });
  });
  announce(ctx, projectId);
}
