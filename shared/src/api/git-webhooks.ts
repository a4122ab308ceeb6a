/**
 * Incoming git-provider webhooks (interface-spec.md "Events", "Webhook receivers and delivery
 * debugging"; decisions.md section 4): the members of GitHub's payloads the receivers read, the
 * receivers' answer, and the delivery records of the debug list
 * (`GET /v1/projects/{projectId}/webhook-test/deliveries`).
 *
 * Payload schemas name only what Quire reads; other members are allowed and dropped. Member names
 * are GitHub's (https://docs.github.com/en/webhooks/webhook-events-and-payloads).
 */
import { z } from 'zod';
import { TimestampSchema } from './common';

/** Largest delivery accepted, in bytes: GitHub's own cap on webhook payloads (25 MiB). */
export const WEBHOOK_BODY_LIMIT = 25 * 1024 * 1024;

/** `X-GitHub-Event`: lower-case event names such as `push`, `pull_request`, `installation_repositories`. */
export const GithubEventNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_.]{0,63}$/, 'must be a GitHub event name such as push or pull_request');

/** `X-GitHub-Delivery`: GitHub sends a GUID; any 1-100 letters, digits, `-`, `_`, `.` are accepted. */
export const GithubDeliveryIdSchema = z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be the delivery GUID GitHub sends (letters, digits, "-", "_", ".")');

/**
 * The headers of a delivery, for the OpenAPI document: all optional here, because the receiver
 * checks the signature before any other header (a missing one is a 401 or a 400 from the receiver,
 * not from validation). Other headers pass through.
 */
export const WebhookHeadersSchema = z.looseObject({
  'x-hub-signature-256': z.string().optional().describe('sha256=<hex HMAC-SHA256 of the raw body with the webhook secret>; required'),
  'x-github-event': z.string().optional().describe('Event name (push, pull_request, ping, ...); required'),
  'x-github-delivery': z.string().optional().describe('Delivery GUID; required. A delivery id seen before is answered as it was the first time and changes nothing'),
});

const url = z.string().max(2048);

/** `repository` of a payload: the URLs a project's `repoUrl` is matched against. */
export const GithubRepositorySchema = z.object({
  full_name: z.string().min(1).max(300),
  clone_url: url.optional(),
  html_url: url.optional(),
  ssh_url: url.optional(),
  git_url: url.optional(),
});
export type GithubRepository = z.infer<typeof GithubRepositorySchema>;

const pathList = z.array(z.string().min(1).max(4096));

/** One commit of a push, with the paths it changed. */
export const GithubPushCommitSchema = z.object({
  id: z.string().max(64),
  added: pathList.optional(),
  modified: pathList.optional(),
  removed: pathList.optional(),
});

/** The `push` event. */
export const GithubPushEventSchema = z.object({
  ref: z.string().min(1).max(1024),
  before: z.string().max(64),
  after: z.string().max(64),
  created: z.boolean().optional(),
  deleted: z.boolean().optional(),
  forced: z.boolean().optional(),
  commits: z.array(GithubPushCommitSchema).nullish(),
  repository: GithubRepositorySchema,
});
export type GithubPushEvent = z.infer<typeof GithubPushEventSchema>;

/** The `pull_request` event. */
export const GithubPullRequestEventSchema = z.object({
  action: z.string().min(1).max(100),
  number: z.number().int().positive(),
  pull_request: z.object({
    title: z.string().max(1024).nullish(),
    head: z.object({ ref: z.string().min(1).max(1024), sha: z.string().max(64) }),
    base: z.object({ ref: z.string().min(1).max(1024), sha: z.string().max(64) }).optional().describe('The branch the pull request merges into (the docs agent diffs from it)'),
  }),
  repository: GithubRepositorySchema,
});
export type GithubPullRequestEvent = z.infer<typeof GithubPullRequestEventSchema>;

/** The `ping` event sent when a webhook is created (a repository webhook names its repository). */
export const GithubPingEventSchema = z.object({
  zen: z.string().max(1024),
  hook_id: z.number().int(),
  repository: GithubRepositorySchema.optional(),
});
export type GithubPingEvent = z.infer<typeof GithubPingEventSchema>;

const installation = z.object({
  id: z.number().int().positive(),
  account: z.object({ login: z.string().min(1).max(300) }),
});
const repositoryNames = z.array(z.object({ full_name: z.string().min(1).max(300) }));

/** The `installation` event of the GitHub App (created, deleted, suspend, unsuspend, new_permissions_accepted). */
export const GithubInstallationEventSchema = z.object({
  action: z.string().min(1).max(100),
  installation,
  repositories: repositoryNames.nullish(),
});
export type GithubInstallationEvent = z.infer<typeof GithubInstallationEventSchema>;

/** The `installation_repositories` event of the GitHub App (added, removed). */
export const GithubInstallationRepositoriesEventSchema = z.object({
  action: z.string().min(1).max(100),
  installation,
  repositories_added: repositoryNames.nullish(),
  repositories_removed: repositoryNames.nullish(),
});
export type GithubInstallationRepositoriesEvent = z.infer<typeof GithubInstallationRepositoriesEventSchema>;

/** Any other event: a JSON object, whose `action` and `repository` are recorded when present. */
export const GithubOtherEventSchema = z.object({
  action: z.string().max(100).optional(),
});

/** The receivers' answer (interface-spec.md "Events"). */
export const WebhookResultSchema = z.object({
  builds: z.array(z.string()).describe('Ids of the builds queued; [] when no project is connected to the repository or nothing was built'),
  preview: z.boolean().describe('True when what was queued is a preview (every build queued is a preview build)'),
});
export type WebhookResult = z.infer<typeof WebhookResultSchema>;

/** Receivers. */
export const WebhookReceiverSchema = z.enum(['github', 'github-app']);
export type WebhookReceiver = z.infer<typeof WebhookReceiverSchema>;

/** What a delivery did for one project. */
export const DELIVERY_OUTCOMES = [
  'production_build',
  'preview_build',
  'preview_removed',
  'ignored',
  'ping',
  'recorded',
  'refused',
  'rejected',
  'agent_run',
] as const;
export const DeliveryOutcomeSchema = z
  .enum(DELIVERY_OUTCOMES)
  .describe(
    'production_build / preview_build: a build was queued; preview_removed: a preview was taken down (branch deleted, pull request closed); ' +
      'ignored: nothing to do (tag push, other pull request action, unknown event); ping: the webhook was created; recorded: an installation event ' +
      "of the GitHub App; refused: the monthly build limit was reached, no build; rejected: the signature did not verify with this project's secret; " +
      "agent_run: the repository is one of the project's settings.sourceRepos and a docs agent run was started (or an earlier run of the head commit " +
      'found, or the run skipped over the agent rate; the detail says which)',
  );
export type DeliveryOutcome = z.infer<typeof DeliveryOutcomeSchema>;

/** One incoming delivery as it concerned a project (debug list). The payload is never stored. */
export const GitDeliverySchema = z.object({
  id: z.string().describe('ghd_<id>'),
  deliveryId: z.string().describe('X-GitHub-Delivery'),
  receiver: WebhookReceiverSchema.describe('github: POST /v1/webhooks/github; github-app: POST /v1/webhooks/github-app'),
  event: z.string().describe('X-GitHub-Event'),
  action: z.string().nullable().describe("The payload's action, when it has one"),
  signature: z.enum(['valid', 'invalid']).describe("invalid: X-Hub-Signature-256 did not verify with this project's webhook secret"),
  outcome: DeliveryOutcomeSchema,
  detail: z.string().describe('What happened, in words'),
  builds: z.array(z.string()).describe('Builds it queued'),
  repository: z.string().nullable().describe('owner/name from the payload'),
  receivedAt: TimestampSchema,
});
export type GitDelivery = z.infer<typeof GitDeliverySchema>;
