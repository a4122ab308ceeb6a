/**
 * Git-provider webhook receivers and their delivery debug list (interface-spec.md "Events",
 * "Webhook receivers and delivery debugging"; decisions.md sections 1 and 4):
 * - `POST /v1/webhooks/github`: a repository webhook, signed with the project's `webhookSecret`;
 * - `POST /v1/webhooks/github-app`: the GitHub App's webhook, signed with `QUIRE_GITHUB_APP_WEBHOOK_SECRET`;
 * - `GET /v1/projects/{projectId}/webhook-test/deliveries` (`builds:read`): recent deliveries of a project.
 *
 * The receivers are public (their signature authenticates them) and take the body as raw bytes
 * (a content-type parser of this plugin only), up to 25 MiB, so the signature is checked over
 * exactly what GitHub signed before anything parses it (services/github-webhooks/).
 */
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '@quire/shared/errors';
import { dataEnvelope, errorResponses, PerPagePaginationSchema } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { GitDeliverySchema, WEBHOOK_BODY_LIMIT, WebhookHeadersSchema, WebhookResultSchema, type WebhookReceiver } from '@quire/shared/api/git-webhooks';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { sendApiError, toApiError } from '../../../plugins/errors';
import { RawBody } from '../../../services/github-webhooks/payload';
import { receiveDelivery } from '../../../services/github-webhooks/receive';
import { listDeliveries, toGitDeliveryDto, DELIVERY_RETENTION_DAYS } from '../../../services/github-webhooks/deliveries';

const RECEIVER_COMMON = `The body is taken as received (\`application/json\`, or \`application/x-www-form-urlencoded\` with a \`payload\` member; at most 25 MiB, larger: 413) and \`X-Hub-Signature-256\` (\`sha256=<hex HMAC-SHA256 of the body>\`) is verified in constant time before anything reads it: a missing, malformed or wrong signature answers 401 \`unauthorized\` ("Invalid webhook signature: ...") and builds nothing. \`X-GitHub-Event\` and \`X-GitHub-Delivery\` are then required (400 otherwise); a body that is not a GitHub event of its type answers 400 \`invalid_request\`.

Handling, for every project whose \`repoUrl\` names the payload's repository (host and path compared case-insensitively, https, ssh and \`git@host:path\` forms alike): a push to the project's \`repoBranch\` queues a production build; a push to another branch a preview build served at \`http://<branch-slug>--<slug>-docs.<sites domain>/\`; tag pushes build nothing; deleting a branch removes its preview (never production). \`pull_request\` \`opened\`, \`synchronize\` and \`reopened\` queue a preview of the head commit at \`http://pr-<number>--<slug>-docs.<sites domain>/\`; \`closed\` removes it; other actions are ignored. \`ping\` and other events answer 200 and build nothing. The changed paths of a push's commits are recorded on the build (\`changedFiles\` of \`GET /v1/projects/{projectId}/builds/{buildId}\`).

Webhook builds never get 409: while a build of the project runs they wait for it, and a newer build of the same branch (production) or preview replaces an older one still queued (that one ends \`cancelled\`). They have no hourly trigger limit; they count against the monthly build limit (past it: no build, the answer is still 200 and the delivery record says why).

Answer 200 \`{data: {builds, preview}}\`: the ids of the builds queued (\`[]\` when no project is connected to the repository) and whether they are previews. A delivery id (\`X-GitHub-Delivery\`) seen before changes nothing and is answered as the first time. Every delivery is recorded for \`GET /v1/projects/{projectId}/webhook-test/deliveries\`; the payload is never stored.`;

const gitWebhookRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();

  // The receivers, in their own context: raw-body parsers and the 25 MiB limit apply to them only.
  await app.register(async (receivers) => {
    receivers.removeAllContentTypeParsers();
    for (const [type, encoding] of [['application/json', 'json'], ['application/x-www-form-urlencoded', 'form']] as const) {
      receivers.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, new RawBody(body as Buffer, encoding)));
    }
    receivers.setErrorHandler((err: FastifyError, req, reply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendApiError(reply, new ApiError('payload_too_large', 'A webhook delivery may be at most 25 MiB (GitHub\'s own limit).', { limit: WEBHOOK_BODY_LIMIT }));
      }
      if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        return sendApiError(reply, new ApiError('unsupported_media_type', 'Send the delivery as application/json (the webhook\'s "Content type" setting on GitHub).'));
      }
      return sendApiError(reply, toApiError(err, req));
    });
    const typed = receivers.withTypeProvider<ZodTypeProvider>();
    const receiver = (path: string, name: WebhookReceiver, summary: string, description: string) =>
      typed.post(path, {
        config: { public: true },
        bodyLimit: WEBHOOK_BODY_LIMIT,
        schema: {
          tags: ['Webhooks'],
          summary,
          description: `${description}\n\n${RECEIVER_COMMON}`,
          security: [],
          headers: WebhookHeadersSchema,
          response: { 200: dataEnvelope(WebhookResultSchema), ...errorResponses(400, 401, 413, 415, 429) },
        },
      }, async (req) => ({
        data: await receiveDelivery(app.ctx, {
          receiver: name,
          body: req.body instanceof RawBody ? req.body : undefined,
          signature: req.headers['x-hub-signature-256'],
          event: req.headers['x-github-event'],
          deliveryId: req.headers['x-github-delivery'],
        }),
      }));

    receiver(
      '/webhooks/github',
      'github',
      'Receive a GitHub repository webhook',
      'Set up on GitHub under the repository\'s Settings → Webhooks → Add webhook: Payload URL `<base url>/v1/webhooks/github`, Content type `application/json`, Secret: the project\'s `webhookSecret` (set it with `PATCH /v1/projects/{projectId}`), events: "Let me select individual events" → Pushes and Pull requests (a ping arrives when the webhook is created; the project\'s delivery list shows it). Several projects of one repository may share one webhook by sharing its secret. Builds have trigger `push`.',
    );
    receiver(
      '/webhooks/github-app',
      'github-app',
      'Receive the GitHub App webhook',
      'The central webhook of the installed GitHub App, verified with `QUIRE_GITHUB_APP_WEBHOOK_SECRET` (unset: every delivery answers 401, the receiver is not configured). Acts for every project connected to the repository, whatever its own webhook secret; builds have trigger `github_app`. `installation` and `installation_repositories` events keep the app\'s installations (account, status, repositories) up to date.',
    );
  });

  app.get('/projects/:projectId/webhook-test/deliveries', {
    config: { permission: 'builds:read' },
    schema: {
      tags: ['Webhooks'],
      summary: 'List recent webhook deliveries',
      description: `What each incoming GitHub delivery that concerned the project did, newest first, to debug a webhook: event and action, whether the signature verified with this project's secret (\`invalid\` deliveries answered 401, or were signed with another project's secret), the outcome (production_build, preview_build, preview_removed, ignored, ping, recorded, refused, rejected) with a sentence, and the builds queued. The payload is never stored. Records are kept ${DELIVERY_RETENTION_DAYS} days. Pagination: page, per_page (alias pageSize; default 20, above 100 clamped).`,
      params: ProjectParamsSchema,
      querystring: PageQuerySchema,
      response: { 200: z.object({ data: z.array(GitDeliverySchema), pagination: PerPagePaginationSchema }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await listDeliveries(app.ctx, req.auth, req.params.projectId, page);
    return { data: items.map(toGitDeliveryDto), pagination: pagination(page, total, 'perPage') };
  });
};
export default gitWebhookRoutes;
