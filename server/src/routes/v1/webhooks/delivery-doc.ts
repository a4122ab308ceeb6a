/**
 * How deliveries look to a receiver, written into the OpenAPI document (decisions.md section 8 leaves
 * payloads to Quire): events, body, headers, signature check, retry schedule. Numbers come from the
 * delivery service, so the text follows the code.
 */
import { WEBHOOK_EVENT_TYPES } from '@quire/shared/api/webhooks';
import { DELIVERY_TIMEOUT_MS, RETRY_DELAYS_MS } from '../../../services/webhook-delivery';
import { USER_AGENT } from '../../../services/webhooks/delivery-headers';

/** A delay in ms as words: `5 s`, `30 min`, `10 h`. */
function duration(ms: number): string {
  if (ms < 60_000) return `${ms / 1000} s`;
  if (ms < 3_600_000) return `${ms / 60_000} min`;
  return `${ms / 3_600_000} h`;
}

/** The delivery contract, in Markdown. */
export const DELIVERY_DESCRIPTION = `
**Events.** ${WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}. \`build.*\`: a build was queued, deployed, failed or was cancelled
(\`data\` is the build as GET /v1/projects/{projectId}/builds/{buildId} shows it); \`review.updated\`: a review's status or revision changed
(\`data\`: the review), or one of its comments (\`data.event\`: \`{kind, commentId}\`, kind \`comment.created\`, \`suggestion.created\`,
\`suggestion.applied\`, \`thread.resolved\` or \`thread.unresolved\`); \`approval.updated\`: an approval was decided (an approval counted, approved, rejected, or closed with its build; \`data\`: the approval);
\`reindex.completed\`: a search reindex finished (reserved: nothing sends it yet). Every \`data\` also carries \`projectId\`.

**Body** (Standard Webhooks, https://www.standardwebhooks.com/): \`POST\` with \`{"type": "build.deployed", "timestamp": "2025-01-31T12:00:00.000Z", "data": {...}}\`.

**Headers.** \`content-type: application/json\`, \`user-agent: ${USER_AGENT}\`, \`webhook-id\` (the event id \`msg_...\`, the same on every
attempt: deduplicate on it), \`webhook-timestamp\` (Unix seconds of the attempt), \`webhook-signature\` (\`v1,<base64 HMAC-SHA256 of
"<webhook-id>.<webhook-timestamp>.<body>" keyed with the base64-decoded part of the secret after \`whsec_\`>\`). Verify with any Standard Webhooks library, e.g. in Node.js:
\`new Webhook(secret).verify(rawBody, headers)\` from the \`standardwebhooks\` package (it throws on a bad signature or a timestamp more than 5 minutes off).

**Delivery and retries.** A 2xx answer within ${DELIVERY_TIMEOUT_MS / 1000} s is success; redirects are not followed. Otherwise the attempt is retried after
${RETRY_DELAYS_MS.map(duration).join(', ')} (${RETRY_DELAYS_MS.length + 1} attempts over about ${Math.round(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 3_600_000)} hours), then the event is \`failed\`.
Every attempt is kept: see GET /v1/webhooks/history, /v1/webhooks/event/{id} and /v1/webhooks/calls/{id}; POST /v1/webhooks/event/send/{id} redelivers now.
`.trim();
