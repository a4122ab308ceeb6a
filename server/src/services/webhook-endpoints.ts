/**
 * Outgoing webhook endpoints of a project (decisions.md section 8): registered with
 * `POST /v1/projects/{projectId}/webhooks`, listed, deleted; audited as `webhook.created` /
 * `webhook.deleted` (interface-spec.md "Events", resource type `webhook`). Each endpoint gets a
 * signing secret in the Standard Webhooks format (`whsec_` + base64 of 24 random bytes), shown only
 * in the create response and stored sealed with the installation's key (git/secret-box.ts), bound
 * to the endpoint id. The URL must pass the outbound address policy (net/outbound.ts; decisions.md
 * section 10) when registered, and again on every delivery (names may resolve elsewhere later).
 */
import { randomBytes } from 'node:crypto';
import { ApiError, invalidField } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import {
  MAX_WEBHOOKS_PER_PROJECT,
  WEBHOOK_EVENT_TYPES,
  type CreatedWebhookEndpoint,
  type CreateWebhookBody,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@quire/shared/api/webhooks';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import { parseStringList } from '../db/json-columns';
import type { RequestAuth } from '../access/request-auth';
import { openSecret, sealSecret, secretKeyOf } from '../git/secret-box';
import { checkOutboundDestination } from '../net/outbound';
import { OutboundRefusedError } from '../net/errors';
import { recordAudit } from './audit';
import { getProjectForCaller } from './projects';

/** A stored endpoint. */
export type WebhookEndpointRow = Models.WebhookEndpointModel;

/** Random bytes of a signing secret (Standard Webhooks: between 24 and 64 bytes). */
const SECRET_BYTES = 24;

/** A new signing secret: `whsec_` + base64 of {@link SECRET_BYTES} random bytes (the Standard Webhooks format). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The sealing context: a sealed secret opens only for its endpoint. */
function sealContext(endpointId: string): string {
  return `webhook/${endpointId}`;
}

/** The event types an endpoint's stored `events` column holds ([] = every type); unknown values are dropped. */
export function endpointEventTypes(row: Pick<WebhookEndpointRow, 'events'>): WebhookEventType[] {
  const known = new Set<string>(WEBHOOK_EVENT_TYPES);
  return (parseStringList(row.events) ?? []).filter((t): t is WebhookEventType => known.has(t));
}

/** Whether an endpoint receives events of `type` (an empty list means every type). */
export function endpointReceives(row: Pick<WebhookEndpointRow, 'events'>, type: WebhookEventType): boolean {
  const types = endpointEventTypes(row);
  return types.length === 0 || types.includes(type);
}

/** The response form of an endpoint (never its secret). */
export function toWebhookEndpointDto(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    projectId: row.projectId,
    url: row.url,
    description: row.description,
    events: endpointEventTypes(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The outbound address policy of this installation (QUIRE_ALLOW_PRIVATE_NETWORK). */
export function outboundPolicy(ctx: AppContext): { allowPrivateNetwork: boolean } {
  return { allowPrivateNetwork: ctx.config.allowPrivateNetwork };
}

/**
 * Registers an endpoint (201): checks the URL against the outbound address policy, generates and
 * seals its secret, audits `webhook.created` (with the URL's host and the event types, never the
 * secret or the full URL, which may carry a token) in the same transaction.
 * @returns the endpoint with its secret (shown only this once).
 * @throws ApiError not_found (project unknown or not the caller's); invalid_request with
 *   `details.field: "url"` when the destination is refused (a private, loopback or link-local
 *   address in any literal form, or a name resolving to one, unless QUIRE_ALLOW_PRIVATE_NETWORK=1;
 *   the message says why); conflict past {@link MAX_WEBHOOKS_PER_PROJECT} endpoints.
 */
export async function createWebhookEndpoint(ctx: AppContext, auth: RequestAuth, projectId: string, body: CreateWebhookBody): Promise<CreatedWebhookEndpoint> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  try {
    await checkOutboundDestination(body.url, outboundPolicy(ctx));
  } catch (err) {
    if (err instanceof OutboundRefusedError) throw invalidField('url', err.message, `url: ${err.message}`);
    throw err;
  }
  const id = newId('webhook');
  const secret = newWebhookSecret();
  const sealed = sealSecret(secretKeyOf(ctx.config), secret, sealContext(id));
  const events = body.events ?? [];
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    const count = await tx.webhookEndpoint.count({ where: { projectId } });
    if (count >= MAX_WEBHOOKS_PER_PROJECT) {
      throw new ApiError('conflict', `A project may have at most ${MAX_WEBHOOKS_PER_PROJECT} webhook endpoints; delete one first.`, { limit: MAX_WEBHOOKS_PER_PROJECT });
    }
    const created = await tx.webhookEndpoint.create({
      data: {
        id,
        projectId,
        orgId: project.orgId,
        url: body.url,
        description: body.description ?? null,
        events: JSON.stringify(events),
        secret: sealed,
        createdById: auth.userId,
      },
    });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'webhook.created',
      resource: { type: 'webhook', id, name: body.description || new URL(body.url).host },
      metadata: { host: new URL(body.url).host, events },
    });
    return created;
  });
  return { ...toWebhookEndpointDto(row), secret };
}

/** A project's endpoints, oldest first (not paginated: at most {@link MAX_WEBHOOKS_PER_PROJECT}). @throws ApiError not_found. */
export async function listWebhookEndpoints(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<WebhookEndpointRow[]> {
  await getProjectForCaller(ctx, auth, projectId);
  return ctx.db.prisma.webhookEndpoint.findMany({ where: { projectId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/**
 * Deletes an endpoint (204), audited as `webhook.deleted`. Its events and their attempts go with it
 * (the schema cascades), so pending deliveries stop.
 * @throws ApiError not_found (project not the caller's, or no such endpoint in it, also once deleted).
 */
export async function deleteWebhookEndpoint(ctx: AppContext, auth: RequestAuth, projectId: string, webhookId: string): Promise<void> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  await ctx.db.prisma.$transaction(async (tx) => {
    const row = await tx.webhookEndpoint.findFirst({ where: { id: webhookId, projectId } });
    if (!row) throw new ApiError('not_found', `No webhook ${webhookId} in project ${projectId}.`);
    await tx.webhookEndpoint.delete({ where: { id: row.id } });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'webhook.deleted',
      resource: { type: 'webhook', id: row.id, name: row.description || new URL(row.url).host },
      metadata: { host: new URL(row.url).host },
    });
  });
}

/**
 * An endpoint's signing secret, opened for a delivery. Internal: it must never reach a response or a log.
 * @throws SecretBoxError when it cannot be opened (the installation's secret key changed).
 */
export function openWebhookSecret(ctx: AppContext, row: Pick<WebhookEndpointRow, 'id' | 'secret'>): string {
  return openSecret(secretKeyOf(ctx.config), row.secret, sealContext(row.id));
}

