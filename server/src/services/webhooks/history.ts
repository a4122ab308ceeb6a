/**
 * The webhook event history API (interface-spec.md "Webhook event history API"; decisions.md
 * section 8): every event recorded for the caller's organization (and, for a project-scoped key,
 * its project only), its payload and headers, and every HTTP call made to deliver it. Another
 * organization's event answers 404 (decisions.md section 10), never 403.
 */
import { ApiError } from '@quire/shared/errors';
import type { WebhookAttempt, WebhookEvent, WebhookEventDetail, WebhookHistoryFilters, WebhookPayload } from '@quire/shared/api/webhooks';
import type { AppContext } from '../../context';
import type { Models } from '../../db/client';
import type { Prisma } from '../../db/generated/client';
import type { RequestAuth } from '../../access/request-auth';
import type { PageRequest } from '@quire/shared/api/common';
import { getProjectForCaller } from '../projects';
import { baseDeliveryHeaders } from './delivery-headers';

type MessageRow = Models.WebhookMessageModel;
type AttemptRow = Models.WebhookAttemptModel;
/** An event with what its listed form needs: its endpoint's URL and its number of attempts. */
type MessageWithParts = MessageRow & { endpoint: { url: string }; _count: { calls: number } };

const MESSAGE_INCLUDE = { endpoint: { select: { url: true } }, _count: { select: { calls: true } } } as const;

/** The listed form of an event. */
export function toWebhookEventDto(row: MessageWithParts): WebhookEvent {
  return {
    id: row.id,
    type: row.eventType as WebhookEvent['type'],
    projectId: row.projectId,
    webhookId: row.endpointId,
    url: row.endpoint.url,
    status: row.status as WebhookEvent['status'],
    attemptCount: row._count.calls,
    nextAttemptAt: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    lastStatusCode: row.lastStatusCode,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}

/** A stored JSON object of string values (request headers); an unreadable one is empty. */
function parseHeaders(json: string): Record<string, string> {
  try {
    const value = JSON.parse(json) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

/** The response form of one attempt (a "call"). */
export function toWebhookAttemptDto(row: AttemptRow): WebhookAttempt {
  return {
    id: row.id,
    eventId: row.messageId,
    attempt: row.attempt,
    trigger: row.trigger === 'manual' ? 'manual' : 'automatic',
    url: row.url,
    requestHeaders: parseHeaders(row.requestHeaders),
    statusCode: row.statusCode,
    outcome: row.outcome === 'succeeded' ? 'succeeded' : 'failed',
    error: row.error,
    responseBody: row.responseBody,
    durationMs: row.durationMs,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The caller's events, newest first, filtered by type, status, creation time (`from`/`to`,
 * inclusive), project and endpoint.
 * @throws ApiError not_found when `project_id` names a project the caller cannot see.
 */
export async function listWebhookHistory(
  ctx: AppContext,
  auth: RequestAuth,
  filters: WebhookHistoryFilters,
  page: PageRequest,
): Promise<{ items: WebhookEvent[]; total: number }> {
  if (filters.project_id) await getProjectForCaller(ctx, auth, filters.project_id);
  const projectId = filters.project_id ?? auth.projectId ?? undefined;
  const where: Prisma.WebhookMessageWhereInput = {
    orgId: auth.orgId,
    ...(projectId ? { projectId } : {}),
    ...(filters.event_type ? { eventType: filters.event_type } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.webhook_id ? { endpointId: filters.webhook_id } : {}),
    ...(filters.from || filters.to ? { createdAt: { ...(filters.from ? { gte: filters.from } : {}), ...(filters.to ? { lte: filters.to } : {}) } } : {}),
  };
  const prisma = ctx.db.prisma;
  const [rows, total] = await Promise.all([
    prisma.webhookMessage.findMany({ where, include: MESSAGE_INCLUDE, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: page.skip, take: page.take }),
    prisma.webhookMessage.count({ where }),
  ]);
  return { items: rows.map(toWebhookEventDto), total };
}

/** `row` when the caller may see it, else 404 (unknown, another organization's, or outside a project-scoped key's project). */
function visibleTo<T extends Pick<MessageRow, 'orgId' | 'projectId'>>(auth: RequestAuth, messageId: string, row: T | null): T {
  if (!row || row.orgId !== auth.orgId || (auth.projectId !== null && auth.projectId !== row.projectId)) {
    throw new ApiError('not_found', `No webhook event ${messageId}.`);
  }
  return row;
}

/**
 * One event the caller may see.
 * @throws ApiError not_found for an unknown id, another organization's event, or one outside a
 *   project-scoped key's project.
 */
export async function findWebhookEventForCaller(ctx: AppContext, auth: RequestAuth, messageId: string): Promise<MessageRow> {
  return visibleTo(auth, messageId, await ctx.db.prisma.webhookMessage.findUnique({ where: { id: messageId } }));
}

/** Every attempt of an event, oldest first. @throws ApiError not_found (see {@link findWebhookEventForCaller}). */
export async function listWebhookCalls(ctx: AppContext, auth: RequestAuth, messageId: string): Promise<WebhookAttempt[]> {
  await findWebhookEventForCaller(ctx, auth, messageId);
  const rows = await ctx.db.prisma.webhookAttempt.findMany({ where: { messageId }, orderBy: [{ attempt: 'asc' }, { createdAt: 'asc' }] });
  return rows.map(toWebhookAttemptDto);
}

/**
 * An event with its headers (those of the latest attempt; before any, the ones every attempt
 * carries), its payload and its attempts. @throws ApiError not_found (see {@link findWebhookEventForCaller}).
 */
export async function getWebhookEventDetail(ctx: AppContext, auth: RequestAuth, messageId: string): Promise<WebhookEventDetail> {
  const row = visibleTo(auth, messageId, await ctx.db.prisma.webhookMessage.findUnique({ where: { id: messageId }, include: MESSAGE_INCLUDE }));
  const attempts = (await ctx.db.prisma.webhookAttempt.findMany({ where: { messageId }, orderBy: [{ attempt: 'asc' }, { createdAt: 'asc' }] })).map(toWebhookAttemptDto);
  const latest = attempts[attempts.length - 1];
  return {
    ...toWebhookEventDto(row),
    headers: latest ? latest.requestHeaders : baseDeliveryHeaders(row.id),
    payload: JSON.parse(row.payload) as WebhookPayload,
    attempts,
  };
}
