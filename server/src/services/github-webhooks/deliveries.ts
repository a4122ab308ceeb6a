/**
 * Records of incoming deliveries (`GitDelivery`, prisma/schema.prisma) for the debug list
 * `GET /v1/projects/{projectId}/webhook-test/deliveries` (interface-spec.md "Webhook receivers and
 * delivery debugging"), and the replay rule: a delivery id already recorded with a valid signature
 * changes nothing and is answered as it was the first time. One row per (receiver, delivery id,
 * project), `projectId` "" when the delivery concerned no project. The payload is never stored.
 * Rows older than {@link DELIVERY_RETENTION_DAYS} days are deleted as new ones of the project arrive.
 */
import { newId } from '@quire/shared/ids';
import type { DeliveryOutcome, GitDelivery, WebhookReceiver, WebhookResult } from '@quire/shared/api/git-webhooks';
import type { AppContext } from '../../context';
import type { Models } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { parseStringList } from '../../db/json-columns';
import type { PageRequest } from '@quire/shared/api/common';
import type { RequestAuth } from '../../access/request-auth';
import type { DbClient } from '../audit';
import { nextStamp } from '../../db/stamps';
import { getProjectForCaller } from '../projects';

/** Days a delivery record is kept. */
export const DELIVERY_RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** One record to write. */
export interface DeliveryRecord {
  receiver: WebhookReceiver;
  deliveryId: string;
  /** "" when it concerned no project */
  projectId: string;
  event: string;
  action: string | null;
  signature: 'valid' | 'invalid';
  outcome: DeliveryOutcome;
  detail: string;
  buildIds: string[];
  /** owner/name */
  repository: string | null;
}

/**
 * Writes a record of a verified delivery (inside the caller's transaction when it queues a build),
 * replacing a record of the same delivery id and project left by an earlier copy whose signature
 * did not verify, and deletes the project's records past retention.
 * @throws the unique violation (Prisma P2002) when a record of this delivery with a valid
 *   signature exists: a replay racing the first copy (see {@link isUniqueViolation}).
 */
export async function recordDelivery(db: DbClient, record: DeliveryRecord): Promise<void> {
  const key = { receiver: record.receiver, deliveryId: record.deliveryId, projectId: record.projectId };
  if (record.signature === 'valid') await db.gitDelivery.deleteMany({ where: { ...key, signature: 'invalid' } });
  await db.gitDelivery.create({
    data: { id: newId('gitDelivery'), ...key, event: record.event, action: record.action, signature: record.signature, outcome: record.outcome, detail: record.detail, buildIds: JSON.stringify(record.buildIds), repository: record.repository, createdAt: nextStamp() },
  });
  await db.gitDelivery.deleteMany({ where: { projectId: record.projectId, createdAt: { lt: new Date(Date.now() - DELIVERY_RETENTION_DAYS * DAY_MS) } } });
}

/**
 * Writes a record unless one of the same delivery id and project exists (a rejected copy never
 * overwrites anything).
 * @returns false when one existed.
 */
export async function recordDeliveryOnce(db: DbClient, record: DeliveryRecord): Promise<boolean> {
  const exists = await db.gitDelivery.findFirst({
    where: { receiver: record.receiver, deliveryId: record.deliveryId, projectId: record.projectId },
    select: { id: true },
  });
  if (exists) return false;
  try {
    await recordDelivery(db, record);
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** The receivers' answer from what the records of one delivery say: its builds, and whether they are all previews. */
export function answerOf(records: Pick<DeliveryRecord, 'outcome' | 'buildIds'>[]): WebhookResult {
  const queued = records.filter((r) => r.buildIds.length > 0);
  return {
    builds: queued.flatMap((r) => r.buildIds),
    preview: queued.length > 0 && queued.every((r) => r.outcome === 'preview_build'),
  };
}

/**
 * The answer of a delivery id already handled (a verified copy was recorded), or null when it is new.
 */
export async function recordedAnswer(ctx: Pick<AppContext, 'db'>, receiver: WebhookReceiver, deliveryId: string): Promise<WebhookResult | null> {
  const rows = await ctx.db.prisma.gitDelivery.findMany({
    where: { receiver, deliveryId, signature: 'valid' },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { outcome: true, buildIds: true },
  });
  if (rows.length === 0) return null;
  return answerOf(rows.map((r) => ({ outcome: r.outcome as DeliveryOutcome, buildIds: parseStringList(r.buildIds) ?? [] })));
}

/**
 * A project's delivery records, newest first (`GET .../webhook-test/deliveries`).
 * @throws ApiError not_found for a project the caller cannot see.
 */
export async function listDeliveries(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  page: PageRequest,
): Promise<{ items: Models.GitDeliveryModel[]; total: number }> {
  await getProjectForCaller(ctx, auth, projectId);
  const where = { projectId };
  const [items, total] = await Promise.all([
    ctx.db.prisma.gitDelivery.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: page.skip, take: page.take }),
    ctx.db.prisma.gitDelivery.count({ where }),
  ]);
  return { items, total };
}

/** The response form of a record. */
export function toGitDeliveryDto(row: Models.GitDeliveryModel): GitDelivery {
  return {
    id: row.id,
    deliveryId: row.deliveryId,
    receiver: row.receiver as GitDelivery['receiver'],
    event: row.event,
    action: row.action,
    signature: row.signature as GitDelivery['signature'],
    outcome: row.outcome as GitDelivery['outcome'],
    detail: row.detail,
    builds: parseStringList(row.buildIds) ?? [],
    repository: row.repository,
    receivedAt: row.createdAt.toISOString(),
  };
}
