/**
 * The headers every outgoing webhook delivery carries before it is signed (Standard Webhooks:
 * `webhook-id`; decisions.md section 8), shared by the sender (webhook-delivery.ts) and the
 * event history, which shows them for an event not yet attempted (history.ts).
 */

/** The `User-Agent` of every delivery. */
export const USER_AGENT = 'Quire-Webhooks/1.0';

/** The headers every attempt of the webhook event `messageId` (`msg_...`) carries, before its timestamp and signature. */
export function baseDeliveryHeaders(messageId: string): Record<string, string> {
  return { 'content-type': 'application/json', 'user-agent': USER_AGENT, 'webhook-id': messageId };
}
