/**
 * The audit log (interface-spec.md "Audit entry", "Audit log"): recording entries inside the
 * transaction of the change they describe, listing them newest first, and exporting them all.
 */
import { newId } from '@quire/shared/ids';
import type { AuditEntry, AuditLogQuery, AuditResourceType } from '@quire/shared/api/audit-log';
import type { Prisma, PrismaClient } from '../db/generated/client';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { literalContains } from '../db/literal-contains';
import { nextStamp } from '../db/stamps';

/** The Prisma client or a `$transaction` client: what services write through. */
export type DbClient = PrismaClient | Prisma.TransactionClient;

/** What {@link recordAudit} records. */
export interface AuditInput {
  orgId: string;
  /** The project the entry belongs to; null for organization-level entries (shown in every project's log). */
  projectId: string | null;
  /** The caller; the actor is the key's creator (or the signed-in user: `keyId` null for tRPC sessions). Null for actions of the system itself. */
  auth: { userId: RequestAuth['userId']; keyId: RequestAuth['keyId'] | null } | null;
  /** e.g. `settings.updated`, `api_key.rotated`, `build.triggered` (spec "Recorded actions"). */
  action: string;
  resource: { type: AuditResourceType | (string & {}); id: string; name?: string };
  /** Action details, e.g. `{ changes: ['name', 'webhookSecret'] }`. Never put secret values here. */
  metadata?: Record<string, unknown>;
}

const SECRET_KEY = /secret|password|token|^key$/i;

/** Replaces the value of any secret-looking metadata member by `[redacted]` (defence in depth). */
function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) && typeof v === 'string' ? '[redacted]' : redact(v)]),
    );
  }
  return value;
}

/**
 * Records one audit entry. Call it with the transaction client inside `prisma.$transaction`
 * so the entry commits (or rolls back) with the change it describes.
 */
export async function recordAudit(db: DbClient, input: AuditInput): Promise<void> {
  await db.auditEntry.create({
    data: {
      id: newId('auditEntry'),
      orgId: input.orgId,
      projectId: input.projectId,
      action: input.action,
      actorId: input.auth?.userId ?? null,
      apiKeyId: input.auth?.keyId ?? null,
      resourceType: input.resource.type,
      resourceId: input.resource.id,
      resourceName: input.resource.name ?? null,
      metadata: JSON.stringify(redact(input.metadata ?? {})),
      createdAt: nextStamp(),
    },
  });
}

type EntryWithActor = Prisma.AuditEntryGetPayload<{ include: { actor: true } }>;

/** The response form of an entry (a deleted actor shows empty strings). */
export function toAuditEntryDto(row: EntryWithActor): AuditEntry {
  return {
    id: row.id,
    action: row.action,
    actor: { id: row.actor?.id ?? '', name: row.actor?.name ?? '', email: row.actor?.email ?? '' },
    resource: { type: row.resourceType, id: row.resourceId, ...(row.resourceName !== null ? { name: row.resourceName } : {}) },
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Filters of the list and the export. */
export type AuditFilters = Pick<AuditLogQuery, 'actor' | 'resource'>;

/**
 * The where clause of a project's log: its entries plus organization-level ones (project id null).
 * `actor` is a case-insensitive literal substring of the actor's email (`%`, `_` and `\` match
 * themselves, db/literal-contains.ts): it is resolved first to the ids of the users who acted in
 * the organization and whose (lower-case) email contains it.
 */
async function auditWhere(ctx: AppContext, orgId: string, projectId: string, filters: AuditFilters): Promise<Prisma.AuditEntryWhereInput> {
  let actorIds: string[] | undefined;
  if (filters.actor) {
    const like = literalContains(filters.actor.toLowerCase());
    const users = await ctx.db.prisma.user.findMany({
      where: { email: like.where, auditEntries: { some: { orgId } } },
      select: { id: true, email: true },
    });
    actorIds = users.filter((u) => like.matches(u.email.toLowerCase())).map((u) => u.id);
  }
  return {
    orgId,
    OR: [{ projectId }, { projectId: null }],
    ...(filters.resource ? { resourceType: filters.resource } : {}),
    ...(actorIds ? { actorId: { in: actorIds } } : {}),
  };
}

const NEWEST_FIRST: Prisma.AuditEntryOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

/** One page of a project's log, newest first, with `hasMore`. The caller checked access to the project. */
export async function listAudit(
  ctx: AppContext,
  orgId: string,
  projectId: string,
  query: AuditLogQuery,
): Promise<{ data: AuditEntry[]; hasMore: boolean }> {
  const rows = await ctx.db.prisma.auditEntry.findMany({
    where: await auditWhere(ctx, orgId, projectId, query),
    include: { actor: true },
    orderBy: NEWEST_FIRST,
    skip: (query.page - 1) * query.limit,
    take: query.limit + 1,
  });
  return { data: rows.slice(0, query.limit).map(toAuditEntryDto), hasMore: rows.length > query.limit };
}

/**
 * Every entry of a project's log, newest first, read in batches of `batchSize` (keyset paging,
 * so memory stays flat for any log size).
 */
export async function* iterateAudit(
  ctx: AppContext,
  orgId: string,
  projectId: string,
  filters: AuditFilters,
  batchSize = 500,
): AsyncGenerator<AuditEntry> {
  let cursor: { id: string } | undefined;
  const where = await auditWhere(ctx, orgId, projectId, filters);
  for (;;) {
    const rows = await ctx.db.prisma.auditEntry.findMany({
      where,
      include: { actor: true },
      orderBy: NEWEST_FIRST,
      take: batchSize,
      ...(cursor ? { cursor, skip: 1 } : {}),
    });
    for (const row of rows) yield toAuditEntryDto(row);
    if (rows.length < batchSize) return;
    cursor = { id: rows[rows.length - 1]!.id };
  }
}

/** CSV columns of the export. */
export const AUDIT_CSV_COLUMNS = ['id', 'createdAt', 'action', 'actorId', 'actorName', 'actorEmail', 'resourceType', 'resourceId', 'resourceName', 'metadata'] as const;

/**
 * One CSV field (RFC 4180 quoting); values starting with `=`, `+`, `-`, `@` or a control
 * character get a leading `'` so spreadsheets do not run them as formulas.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One entry as a CSV line (with the trailing CRLF), columns as {@link AUDIT_CSV_COLUMNS}. */
export function auditCsvLine(e: AuditEntry): string {
  const cells = [e.id, e.createdAt, e.action, e.actor.id, e.actor.name, e.actor.email, e.resource.type, e.resource.id, e.resource.name ?? '', JSON.stringify(e.metadata)];
  return `${cells.map(csvField).join(',')}\r\n`;
}
