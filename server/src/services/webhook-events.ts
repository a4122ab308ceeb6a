/**
 * Recording outgoing webhook events (decisions.md section 8): what happened to a build, review or
 * approval becomes one message per subscribed endpoint of its project (`WebhookMessage`, status
 * `pending`), whose delivery is then queued (services/webhook-delivery.ts). The body follows the
 * Standard Webhooks convention: `{type, timestamp, data}` where `data` is the resource as the API
 * shows it, with `projectId`.
 *
 * Events and their sources:
 * - `build.queued`, `build.deployed`, `build.failed`, `build.cancelled`: the `build.status` event
 *   (events.ts), heard in every server process; the message's event key `build:<id>:<status>` is
 *   unique per endpoint, so an event several processes observe is recorded once (and a build
 *   requeued on shutdown does not announce `build.queued` twice);
 * - `review.updated`: a review's status or revision changed (services/reviews.ts);
 * - `approval.updated`: an approval was decided, by a person or closed with its build (services/approvals.ts);
 * - `reindex.completed`: declared; nothing emits it yet.
 *
 * Recording never fails its caller: errors are logged, and a build, review or approval goes on.
 */
import { newId } from '@quire/shared/ids';
import type { WebhookEventType, WebhookPayload } from '@quire/shared/api/webhooks';
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/errors';
import { toApprovalDto } from './approval-dto';
import { toBuildDetailDto } from './builds';
import { REVIEW_INCLUDE, toReviewDtos } from './review-dto';
import { endpointReceives } from './webhook-endpoints';
import { enqueueDelivery } from './webhook-delivery';

/** An event to record: what it is about and when it happened. */
export interface WebhookEventInput {
  projectId: string;
  type: WebhookEventType;
  /**
   * Identifies the occurrence (e.g. `build:bld_x:deployed`): with the endpoint, unique, so
   * recording the same occurrence again (another process, a replay) adds nothing.
   */
  key: string;
  /** When it happened (the payload's `timestamp`); default now. */
  at?: Date;
}

/** Build statuses announced to endpoints, and their event type (`building` is not one). */
const BUILD_EVENTS: Readonly<Record<string, WebhookEventType>> = {
  queued: 'build.queued',
  deployed: 'build.deployed',
  failed: 'build.failed',
  cancelled: 'build.cancelled',
};

/**
 * Records `event` for every endpoint of its project that receives its type and queues each new
 * message's delivery. `loadData` is called only when an endpoint receives it, and gives the
 * payload's `data` (the resource as the API shows it; `projectId` is added); returning null skips
 * the event (its resource is gone).
 * @returns the ids of the messages created (none when no endpoint receives it or it was recorded before).
 * @throws what the database or `loadData` throws (see {@link recordWebhookEventSafely}).
 */
export async function recordWebhookEvent(
  ctx: AppContext,
  event: WebhookEventInput,
  loadData: () => Promise<Record<string, unknown> | null>,
): Promise<string[]> {
  const prisma = ctx.db.prisma;
  const endpoints = (await prisma.webhookEndpoint.findMany({ where: { projectId: event.projectId }, select: { id: true, orgId: true, events: true } }))
    .filter((e) => endpointReceives(e, event.type));
  if (endpoints.length === 0) return [];
  const data = await loadData();
  if (!data) return [];
  const payload: WebhookPayload = { type: event.type, timestamp: (event.at ?? new Date()).toISOString(), data: { ...data, projectId: event.projectId } };
  const body = JSON.stringify(payload);
  const created: Array<{ id: string }> = [];
  for (const endpoint of endpoints) {
    const id = newId('webhookMessage');
    try {
      await prisma.webhookMessage.create({
        data: {
          id,
          projectId: event.projectId,
          orgId: endpoint.orgId,
          endpointId: endpoint.id,
          eventType: event.type,
          eventKey: event.key,
          payload: body,
          status: 'pending',
          nextAttemptAt: new Date(),
        },
      });
      created.push({ id });
    } catch (err) {
      if (isUniqueViolation(err)) continue; // recorded already (another process heard it too)
      // The endpoint was deleted meanwhile (foreign key): nothing to deliver to.
      if ((err as { code?: unknown }).code === 'P2003') continue;
      throw err;
    }
  }
  for (const message of created) await enqueueDelivery(ctx, { id: message.id, projectId: event.projectId, attempts: 0 }, 0);
  return created.map((m) => m.id);
}

/**
 * {@link recordWebhookEvent} that never throws: an error is logged with the event and the
 * caller goes on (a webhook must never fail or hold up a build, review or approval).
 */
export async function recordWebhookEventSafely(
  ctx: AppContext,
  event: WebhookEventInput,
  loadData: () => Promise<Record<string, unknown> | null>,
): Promise<void> {
  try {
    await recordWebhookEvent(ctx, event, loadData);
  } catch (err) {
    ctx.log.error({ err, eventType: event.type, eventKey: event.key, projectId: event.projectId }, 'recording a webhook event failed');
  }
}

/**
 * Records the event of a build's new status (`build.status`): `build.queued`, `build.deployed`,
 * `build.failed` or `build.cancelled` with the build as `GET .../builds/{id}` shows it; other
 * statuses are ignored. Never throws.
 */
export async function recordBuildStatusEvent(ctx: AppContext, change: { projectId: string; buildId: string; status: string }): Promise<void> {
  const type = BUILD_EVENTS[change.status];
  if (!type) return;
  await recordWebhookEventSafely(ctx, { projectId: change.projectId, type, key: `build:${change.buildId}:${change.status}` }, async () => {
    const row = await ctx.db.prisma.build.findUnique({ where: { id: change.buildId } });
    return row ? toBuildDetailDto(row, ctx.config) : null;
  });
}

/** What happened to a review's comments, carried by `review.updated` as `event` (comment and suggestion events). */
export interface ReviewCommentEvent {
  kind: 'comment.created' | 'suggestion.created' | 'suggestion.applied' | 'thread.resolved' | 'thread.unresolved';
  commentId: string;
}

/**
 * Records `review.updated` after a review's status or revision changed, or one of its comments
 * (`event`: a comment or suggestion written, a suggestion applied, a thread resolved or opened
 * again), with the review as `GET .../reviews/{id}` shows it (read as the system, no caller needed),
 * plus `event` when given. Never throws.
 * @param review the review after the change (its status, revision and update time identify the occurrence).
 */
export async function recordReviewUpdatedEvent(
  ctx: AppContext,
  review: { id: string; projectId: string; status: string; revision: number; updatedAt: Date },
  event?: ReviewCommentEvent,
): Promise<void> {
  const key = `review:${review.id}:${review.revision}:${review.status}:${review.updatedAt.getTime()}${event ? `:${event.kind}:${event.commentId}` : ''}`;
  await recordWebhookEventSafely(ctx, { projectId: review.projectId, type: 'review.updated', key, at: review.updatedAt }, async () => {
    const [project, row] = await Promise.all([
      ctx.projects.get(review.projectId),
      ctx.db.prisma.review.findUnique({ where: { id: review.id }, include: REVIEW_INCLUDE }),
    ]);
    if (!project || !row) return null;
    const dto = (await toReviewDtos(ctx, project, [row]))[0];
    return dto ? { ...dto, ...(event ? { event } : {}) } : null;
  });
}

/**
 * Records `approval.updated` after a decision on an approval (an approval counted, the approval
 * approved, rejected, or closed with its build), with the approval as `GET .../approvals/{id}`
 * shows it; its status and approval count identify the occurrence. Never throws.
 * @param approval the approval by id, or by the build it holds.
 */
export async function recordApprovalUpdatedEvent(ctx: AppContext, approval: { id: string } | { buildId: string }): Promise<void> {
  try {
    const row = await ctx.db.prisma.approval.findUnique({ where: approval, include: { decisions: true } });
    if (!row) return;
    const approvals = row.decisions.filter((d) => d.decision === 'approve').length;
    const key = `approval:${row.id}:${row.status}:${approvals}`;
    await recordWebhookEvent(ctx, { projectId: row.projectId, type: 'approval.updated', key, at: row.decidedAt ?? new Date() }, async () => toApprovalDto(ctx, row));
  } catch (err) {
    ctx.log.error({ err, eventType: 'approval.updated', approval }, 'recording a webhook event failed');
  }
}
