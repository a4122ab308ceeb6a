/**
 * The two GitHub receivers (interface-spec.md "Events"; decisions.md sections 1 and 4):
 * `POST /v1/webhooks/github` (a repository webhook per project, signed with the project's
 * `webhookSecret`) and `POST /v1/webhooks/github-app` (the app's central webhook, signed with
 * `QUIRE_GITHUB_APP_WEBHOOK_SECRET`, acting for every project connected to the repository).
 *
 * Order: the signature is verified over the raw body before anything reads it (an unverified
 * delivery changes nothing: 401, no build, payload never stored; at most a `rejected` record for
 * the debug list, see {@link recordRejectedCopy}); then the headers; then the payload is read as
 * its event (400 when it is not one); then every connected project is handled (plan.ts) and each
 * gets a delivery record (deliveries.ts).
 *
 * Replays: a project that already has a verified record of the delivery id is not handled again;
 * its recorded result is reused, so a redelivered id changes nothing and answers as the first time
 * did (and a copy that failed half-way completes the projects it missed).
 *
 * Projects that list the repository in `settings.sourceRepos` get a docs agent run of a push or
 * pull request (agent-deliveries.ts; one run per head commit, so a redelivery opens nothing new);
 * a project that lists it only as a source repository gets an `agent_run` record naming the run.
 */
import { GithubDeliveryIdSchema, GithubEventNameSchema, type DeliveryOutcome, type WebhookReceiver, type WebhookResult } from '@quire/shared/api/git-webhooks';
import { ApiError, invalidField } from '@quire/shared/errors';
import type { AppContext } from '../../context';
import { parseStringList } from '../../db/json-columns';
import { isUniqueViolation } from '../../db/errors';
import { removePreview } from '../../deployments/preview-removal';
import { queueGitEventBuild } from '../webhook-builds';
import { answerOf, recordDelivery, recordDeliveryOnce, type DeliveryRecord } from './deliveries';
import { recordInstallation } from './installations';
import { agentRunDetail, startAgentRuns } from './agent-deliveries';
import { actionOf, bodyText, eventNameOf, payloadOf, peekRepository, readEvent, repositoryOf, type GitEvent, type RawBody } from './payload';
import { planFor } from './plan';
import { projectsOfRepository, projectsWithSecret, projectWebhookSecrets, type RepositoryProject } from './repository-projects';
import { invalidSignature, matchingSecret, signatureHeaderIssue } from './signature';

/** A delivery as the route hands it over: the raw body and the three GitHub headers, unread. */
export interface IncomingDelivery {
  receiver: WebhookReceiver;
  /** undefined when the request had no body */
  body: RawBody | undefined;
  signature: string | string[] | undefined;
  event: string | string[] | undefined;
  deliveryId: string | string[] | undefined;
}

/**
 * Verifies, reads and handles one delivery.
 * @returns `{builds, preview}` (interface-spec.md "Events"): the builds queued (none when no project
 *   is connected to the repository), `preview` true when every build queued is a preview.
 * @throws ApiError unauthorized (401) when the signature does not verify (missing, malformed,
 *   or made with another secret or over another body) or, for the app receiver, when
 *   `QUIRE_GITHUB_APP_WEBHOOK_SECRET` is unset; invalid_request (400) for a missing or malformed
 *   `X-GitHub-Event`/`X-GitHub-Delivery`, a body that is not JSON, or JSON that is not a GitHub
 *   event of its type. Nothing is built or stored then.
 */
export async function receiveDelivery(ctx: AppContext, incoming: IncomingDelivery): Promise<WebhookResult> {
  const { receiver } = incoming;
  const secret = await verifiedSecret(ctx, incoming);
  const text = bodyText(incoming.body!)!;
  const eventName = headerValue(incoming.event, 'X-GitHub-Event', GithubEventNameSchema);
  const deliveryId = headerValue(incoming.deliveryId, 'X-GitHub-Delivery', GithubDeliveryIdSchema);
  const event = readEvent(eventName, payloadOf(text, incoming.body!.encoding), receiver === 'github-app');
  const base = { receiver, deliveryId, event: eventName, action: actionOf(event), signature: 'valid' as const };

  if (event.kind === 'installation' || event.kind === 'installation_repositories') {
    const installation = await recordInstallation(ctx, event);
    const count = installation.repositories.length;
    await recordDeliveryOnce(ctx.db.prisma, {
      ...base,
      projectId: '',
      outcome: 'recorded',
      detail: `${event.kind} ${event.payload.action}: installation ${installation.id} on ${installation.account} is ${installation.status}, ${count} ${count === 1 ? 'repository' : 'repositories'}`,
      buildIds: [],
      repository: null,
    });
    return { builds: [], preview: false };
  }

  const repository = repositoryOf(event);
  const repoName = repository?.full_name ?? null;
  const connected = repository ? await projectsOfRepository(ctx, repository) : [];
  const trusted = secret === null ? connected : connected.filter((p) => p.webhookSecret === secret);
  const existing = await recordedOf(ctx, receiver, deliveryId);
  const records: Pick<DeliveryRecord, 'outcome' | 'buildIds'>[] = [];
  for (const project of trusted) {
    records.push(existing.get(project.id) ?? (await handleForProject(ctx, { ...base, repository: repoName }, project, event)));
  }
  // Projects listing the repository as a source of their product: the docs agent (agent-deliveries.ts).
  // Those not connected to it as their docs repository get a record saying what the agent did.
  const agentOnly = (await startAgentRuns(ctx, event, repository, secret, deliveryId)).filter((r) => !trusted.some((p) => p.id === r.projectId));
  for (const run of agentOnly) {
    const detail = `${describe(event)}: ${agentRunDetail(run)}`;
    await recordDeliveryOnce(ctx.db.prisma, { ...base, projectId: run.projectId, outcome: 'agent_run', detail, buildIds: [], repository: repoName });
  }
  if (secret !== null) {
    // The repository webhook: projects of the repository with another secret did not get a delivery they can trust.
    for (const project of connected.filter((p) => p.webhookSecret !== secret)) {
      await recordDeliveryOnce(ctx.db.prisma, {
        ...base,
        signature: 'invalid',
        projectId: project.id,
        outcome: 'rejected',
        detail: project.webhookSecret
          ? `${describe(event)}: signed with another webhook secret than this project's; nothing done for this project`
          : `${describe(event)}: this project has no webhook secret (set webhookSecret with PATCH /v1/projects/{projectId}); nothing done`,
        buildIds: [],
        repository: repoName,
      });
    }
    // Projects of this secret connected to another repository (and not running the agent for it): tell them why nothing happened.
    const handled = new Set([...connected.map((p) => p.id), ...agentOnly.map((r) => r.projectId)]);
    const elsewhere = (await projectsWithSecret(ctx, secret)).filter((p) => !handled.has(p.id));
    for (const project of elsewhere) {
      await recordDeliveryOnce(ctx.db.prisma, {
        ...base,
        projectId: project.id,
        outcome: event.kind === 'ping' ? 'ping' : 'ignored',
        detail: repoName
          ? `${describe(event)}: the delivery is for repository ${repoName}, but this project's repoUrl is ${project.repoUrl || '(none)'}; nothing done`
          : `${describe(event)}: the delivery names no repository; nothing done`,
        buildIds: [],
        repository: repoName,
      });
    }
    if (trusted.length === 0 && elsewhere.length === 0 && agentOnly.length === 0) await recordUnmatched(ctx, base, event, repoName);
  } else if (trusted.length === 0 && agentOnly.length === 0) {
    await recordUnmatched(ctx, base, event, repoName);
  }
  return answerOf(records);
}

/**
 * For a delivery whose signature did not verify: records a `rejected` delivery (signature
 * `invalid`) for each project of the repository the body names, so the debug list shows why
 * nothing happened. Only bodies of at most 1 MiB with well-formed `X-GitHub-Event` and
 * `X-GitHub-Delivery` are read for this (payload.ts `peekRepository`); nothing is acted on,
 * nothing of the payload but its repository's name is kept, and an existing record of the same
 * delivery id is never replaced. Errors are logged, never thrown.
 */
export async function recordRejectedCopy(ctx: AppContext, incoming: IncomingDelivery, why: string): Promise<void> {
  try {
    const eventName = GithubEventNameSchema.safeParse(incoming.event);
    const deliveryId = GithubDeliveryIdSchema.safeParse(incoming.deliveryId);
    if (!eventName.success || !deliveryId.success || !incoming.body) return;
    const repository = peekRepository(incoming.body);
    if (!repository) return;
    for (const project of await projectsOfRepository(ctx, repository)) {
      await recordDeliveryOnce(ctx.db.prisma, {
        receiver: incoming.receiver,
        deliveryId: deliveryId.data,
        projectId: project.id,
        event: eventName.data,
        action: null,
        signature: 'invalid',
        outcome: 'rejected',
        detail: `Invalid webhook signature: ${why}; answered 401, nothing done`,
        buildIds: [],
        repository: repository.full_name,
      });
    }
  } catch (err) {
    ctx.log.warn({ err }, 'recording a webhook delivery with an invalid signature failed');
  }
}

/**
 * The secret the delivery is signed with: one of the projects' webhook secrets (repository
 * webhook), or null for the app receiver (its one secret verified).
 * @throws ApiError unauthorized (see {@link receiveDelivery}).
 */
async function verifiedSecret(ctx: AppContext, incoming: IncomingDelivery): Promise<string | null> {
  const appSecret = ctx.config.githubAppWebhookSecret;
  if (incoming.receiver === 'github-app' && !appSecret) {
    throw new ApiError('unauthorized', 'The GitHub App webhook receiver is not configured: set QUIRE_GITHUB_APP_WEBHOOK_SECRET to the app\'s webhook secret.');
  }
  const issue = signatureHeaderIssue(incoming.signature);
  const text = incoming.body ? bodyText(incoming.body) : null;
  let matched: string | null = null;
  if (!issue && text !== null) {
    const secrets = incoming.receiver === 'github-app' ? [appSecret!] : await projectWebhookSecrets(ctx);
    matched = await matchingSecret(secrets, text, incoming.signature as string);
  }
  if (matched === null) {
    const why = issue ?? (text === null ? 'the body is empty or not UTF-8 text' : 'X-Hub-Signature-256 is not the HMAC-SHA256 of this body with the webhook secret');
    await recordRejectedCopy(ctx, incoming, why);
    throw invalidSignature(why);
  }
  return incoming.receiver === 'github-app' ? null : matched;
}

/** A required header, checked against its schema. @throws ApiError invalid_request naming the header. */
function headerValue(value: string | string[] | undefined, name: string, schema: typeof GithubEventNameSchema): string {
  if (value === undefined || value === '') throw invalidField(name, 'is required', `The ${name} header is required (GitHub sends it with every delivery).`);
  if (Array.isArray(value)) throw invalidField(name, 'must be sent once');
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidField(name, parsed.error.issues[0]!.message);
  return parsed.data;
}

/** The verified records of a delivery id, by project. */
async function recordedOf(ctx: AppContext, receiver: WebhookReceiver, deliveryId: string): Promise<Map<string, Pick<DeliveryRecord, 'outcome' | 'buildIds'>>> {
  const rows = await ctx.db.prisma.gitDelivery.findMany({ where: { receiver, deliveryId, signature: 'valid' }, select: { projectId: true, outcome: true, buildIds: true } });
  return new Map(rows.map((r) => [r.projectId, { outcome: r.outcome as DeliveryOutcome, buildIds: parseStringList(r.buildIds) ?? [] }]));
}

type RecordBase = Pick<DeliveryRecord, 'receiver' | 'deliveryId' | 'event' | 'action' | 'signature'>;

/** Records a verified delivery that concerned no project (`projectId` ""). */
async function recordUnmatched(ctx: AppContext, base: RecordBase, event: GitEvent, repoName: string | null): Promise<void> {
  await recordDeliveryOnce(ctx.db.prisma, {
    ...base,
    projectId: '',
    outcome: event.kind === 'ping' ? 'ping' : 'ignored',
    detail: repoName ? `${describe(event)}: no project is connected to repository ${repoName}` : `${describe(event)}: the delivery names no repository`,
    buildIds: [],
    repository: repoName,
  });
}

/** Handles the event for one project whose delivery is trusted, and records what it did. */
async function handleForProject(
  ctx: AppContext,
  base: RecordBase & { repository: string | null },
  project: RepositoryProject,
  event: GitEvent,
): Promise<Pick<DeliveryRecord, 'outcome' | 'buildIds'>> {
  const plan = planFor(project, event);
  const record = (outcome: DeliveryOutcome, detail: string, buildIds: string[] = []): DeliveryRecord => ({
    ...base,
    projectId: project.id,
    outcome,
    detail,
    buildIds,
  });
  if (plan.kind === 'nothing') {
    const done = record(plan.outcome, plan.detail);
    await recordDeliveryOnce(ctx.db.prisma, done);
    return done;
  }
  if (plan.kind === 'remove_preview') {
    const removal = await removePreview(ctx, project.id, plan.previewName);
    const done = record('preview_removed', removal.deployments === 0 ? `${plan.detail} (it had no deployment)` : plan.detail);
    await recordDeliveryOnce(ctx.db.prisma, done);
    return done;
  }
  const outcome: DeliveryOutcome = plan.previewName === null ? 'production_build' : 'preview_build';
  try {
    const result = await queueGitEventBuild(ctx, {
      projectId: project.id,
      orgId: project.orgId,
      trigger: base.receiver === 'github-app' ? 'github_app' : 'push',
      branch: plan.branch,
      commitSha: plan.commitSha,
      previewName: plan.previewName,
      pullRequest: plan.pullRequest,
      deliveryId: base.deliveryId,
      changedFiles: plan.changedFiles,
      changedSince: plan.changedSince,
      record: (tx, buildId) => recordDelivery(tx, record(outcome, `${plan.detail} queued`, [buildId])),
    });
    if (result.status === 'queued') return { outcome, buildIds: [result.build.id] };
    const refused = record('refused', `${plan.detail} not queued: ${result.reason}`);
    await recordDeliveryOnce(ctx.db.prisma, refused);
    return refused;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Another copy of this delivery recorded this project first: answer with what it did.
    return (await recordedOf(ctx, base.receiver, base.deliveryId)).get(project.id) ?? { outcome: 'ignored', buildIds: [] };
  }
}

/** `push`, `pull_request closed`, ... for record details. */
function describe(event: GitEvent): string {
  const action = actionOf(event);
  return `${eventNameOf(event)}${action ? ` ${action}` : ''}`;
}
