/**
 * One request per POST route that takes `Idempotency-Key` (the app's `idempotentRoutes`) and per
 * site POST endpoint that takes it (`SITE_IDEMPOTENT_POSTS`), each one that succeeds and has side
 * effects, for the replay test (idempotent-replays.test.ts). A case may prepare what its request
 * needs (a queued build, a review, an approval) before it answers the request.
 */
import type { InjectOptions } from 'fastify';
import { bearer } from '../helpers/app';
import { QUESTIONS } from '../chat/chat-fixture';
import { person } from '../jobs/approval-fixture';
import { createWebhookProject, deliver, pushPayload } from '../routes/git-webhooks-fixture';
import type { Receiver } from '../routes/webhooks-fixture';
import type { TestApp } from '../helpers/app';

/** What the cases work on. */
export interface ReplayWorld {
  t: TestApp;
  /** a project deployed to production and to the preview `main`, with a webhook endpoint sending every event to `receiver` */
  projectId: string;
  /** its production site host (`<slug>-docs.localhost:<port>`) */
  host: string;
  receiver: Receiver;
  /** the secret the GitHub App receiver checks (QUIRE_GITHUB_APP_WEBHOOK_SECRET) */
  appSecret: string;
}

/** A request to send twice. `secret`: the answer holds a one-time secret, which the replay replaces by a notice. */
export interface ReplayRequest {
  request: InjectOptions & { url: string; headers?: Record<string, string> };
  secret?: boolean;
}

/** A delivery of the GitHub receivers, with its signature headers (the fixture's `deliver`, caught before it is sent). */
async function signedDelivery(w: ReplayWorld, receiver: 'github' | 'github-app', secret?: string): Promise<ReplayRequest> {
  let captured: InjectOptions | undefined;
  const catcher = { ...w.t, app: { inject: async (options: InjectOptions) => void (captured = options) } } as unknown as TestApp;
  await deliver(catcher, pushPayload('main', 'b'.repeat(40)), { event: 'push', receiver, ...(secret ? { secret } : {}) });
  return { request: captured as ReplayRequest['request'] };
}

/** POSTs through the API as the admin; @returns the answer's `data`. @throws unless the status is 2xx. */
async function create(w: ReplayWorld, url: string, payload: object = {}, key = w.t.adminKey): Promise<Record<string, string>> {
  const res = await w.t.app.inject({ method: 'POST', url, headers: bearer(key), payload });
  if (res.statusCode >= 300) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
  return res.json().data as Record<string, string>;
}

/** Ends the project's queued builds (a project has one queued build at a time; no runner works them here). */
const clearQueue = (w: ReplayWorld) => w.t.ctx.db.prisma.build.updateMany({ where: { projectId: w.projectId, status: 'queued' }, data: { status: 'cancelled' } });

/** A queued production build of the project. */
async function queuedBuild(w: ReplayWorld): Promise<Record<string, string>> {
  await clearQueue(w);
  return create(w, `/v1/projects/${w.projectId}/builds`, { force: true });
}

/** An approval waiting for a decision, on a fresh queued build. */
const pendingApproval = async (w: ReplayWorld) => create(w, `/v1/projects/${w.projectId}/approvals`, { buildId: (await queuedBuild(w)).id });

/** A request of the site host. */
const siteRequest = (w: ReplayWorld, url: string, payload: object): ReplayRequest => ({
  request: { method: 'POST', url, headers: { host: w.host, 'content-type': 'application/json' }, payload: JSON.stringify(payload) },
});

/** Every case, by route (`POST <route pattern>`) or site endpoint (`SITE <path>`). */
export const REPLAY_CASES: Record<string, (w: ReplayWorld) => Promise<ReplayRequest>> = {
  'POST /v1/projects': async () => ({ request: { url: '/v1/projects', payload: { name: 'Replayed project' } } }),
  'POST /v1/api-keys': async () => ({ request: { url: '/v1/api-keys', payload: { name: 'Replayed key', scope: 'read' } }, secret: true }),
  'POST /v1/projects/:projectId/api-keys/:keyId/rotate': async (w) => {
    const key = await create(w, '/v1/api-keys', { name: 'Key to rotate', scope: 'read' });
    return { request: { url: `/v1/projects/${w.projectId}/api-keys/${key.id}/rotate` }, secret: true };
  },
  'POST /v1/projects/:projectId/builds': async (w) => {
    await clearQueue(w);
    return { request: { url: `/v1/projects/${w.projectId}/builds`, payload: { force: true } } };
  },
  'POST /v1/projects/:projectId/style-rules': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/style-rules`, payload: { name: 'plain-words', type: 'substitution', swap: { utilize: 'use' } } } }),
  'POST /v1/projects/:projectId/lint': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/lint`, payload: { path: 'guides/new.mdx', text: 'We utilize it.\n' } } }),
  'POST /v1/projects/:projectId/lint/auto-fix': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/lint/auto-fix`, payload: { path: 'guides/new.mdx', text: 'We utilize it.\n' } } }),
  'POST /v1/projects/:projectId/glossary': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/glossary`, payload: { term: 'CLI', definition: 'The command-line tool.' } } }),
  'POST /v1/projects/:projectId/approval-gates': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/approval-gates`, payload: { name: 'Limits', paths: ['limits.mdx'] } } }),
  'POST /v1/projects/:projectId/approvals': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/approvals`, payload: { buildId: (await queuedBuild(w)).id } } }),
  'POST /v1/projects/:projectId/approvals/:approvalId/approve': async (w) => {
    const approval = await pendingApproval(w);
    const approver = await person(w.t.app, 'approver', 'admin');
    return { request: { url: `/v1/projects/${w.projectId}/approvals/${approval.id}/approve`, headers: bearer(approver.key), payload: { comment: 'Fine.' } } };
  },
  'POST /v1/projects/:projectId/approvals/:approvalId/reject': async (w) => {
    const approval = await pendingApproval(w);
    const rejecter = await person(w.t.app, 'rejecter', 'admin');
    return { request: { url: `/v1/projects/${w.projectId}/approvals/${approval.id}/reject`, headers: bearer(rejecter.key), payload: { reason: 'Not yet.' } } };
  },
  'POST /v1/projects/:projectId/schedules': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/schedules`, payload: { ref: 'main', at: new Date(Date.now() + 86_400_000).toISOString() } } }),
  'POST /v1/projects/:projectId/reviews': async (w) => ({
    request: { url: `/v1/projects/${w.projectId}/reviews`, payload: { title: 'Clearer limits', changes: [{ path: 'limits.mdx', content: '---\ntitle: Limits\n---\n\nAt most 10 MB.\n' }] } },
  }),
  'POST /v1/projects/:projectId/reviews/:reviewId/comments': async (w) => {
    const review = await create(w, `/v1/projects/${w.projectId}/reviews`, { title: 'Commented', changes: [{ path: 'index.mdx', content: '---\ntitle: Welcome\n---\n\nHello.\n' }] });
    return { request: { url: `/v1/projects/${w.projectId}/reviews/${review.id}/comments`, payload: { path: 'index.mdx', lineStart: 1, lineEnd: 1, body: 'Shorter?' } } };
  },
  'POST /v1/projects/:projectId/reviews/:reviewId/suggestions/apply': async (w) => {
    const review = await create(w, `/v1/projects/${w.projectId}/reviews`, { title: 'Suggested', changes: [{ path: 'index.mdx', content: '---\ntitle: Welcome\n---\n\nHello.\n' }] });
    const suggestion = { path: 'index.mdx', lineStart: 5, lineEnd: 5, body: 'Warmer?', suggestion: { lines: { start: 5, end: 5 }, text: 'Hello, writer.' } };
    const comment = await create(w, `/v1/projects/${w.projectId}/reviews/${review.id}/comments`, suggestion);
    return { request: { url: `/v1/projects/${w.projectId}/reviews/${review.id}/suggestions/apply`, payload: { commentIds: [comment.id] } } };
  },
  'POST /v1/projects/:projectId/agent/runs': async (w) => {
    const url = 'https://github.com/acme/product.git';
    const patch = await w.t.app.inject({
      method: 'PATCH',
      url: `/v1/projects/${w.projectId}`,
      headers: bearer(w.t.adminKey),
      payload: { settings: { sourceRepos: [{ url, branch: 'main', globs: { 'src/**': ['index'] }, openapi: [] }] } },
    });
    if (patch.statusCode !== 200) throw new Error(`PATCH sourceRepos: ${patch.statusCode} ${patch.body}`);
    return { request: { url: `/v1/projects/${w.projectId}/agent/runs`, payload: { repoUrl: url, baseRef: 'a'.repeat(40), headRef: 'b'.repeat(40) } } };
  },
  'POST /v1/projects/:projectId/ownership': async (w) => {
    const owner = await person(w.t.app, 'owner', 'editor');
    return { request: { url: `/v1/projects/${w.projectId}/ownership`, payload: { pattern: 'limits', userId: owner.userId } } };
  },
  'POST /v1/webhooks/github': async (w) => {
    await createWebhookProject(w.t, { slug: 'replay-hooks' });
    return signedDelivery(w, 'github');
  },
  'POST /v1/webhooks/github-app': async (w) => signedDelivery(w, 'github-app', w.appSecret),
  'POST /v1/projects/:projectId/webhooks': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/webhooks`, payload: { url: `${w.receiver.url}?second`, events: ['build.failed'] } }, secret: true }),
  'POST /v1/webhooks/event/send/:id': async (w) => {
    await queuedBuild(w); // a build.queued event for the project's endpoint
    const event = await w.t.ctx.db.prisma.webhookMessage.findFirstOrThrow({ where: { projectId: w.projectId }, orderBy: { createdAt: 'desc' } });
    return { request: { url: `/v1/webhooks/event/send/${event.id}` } };
  },
  'POST /v1/projects/:projectId/access-rules': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/access-rules`, payload: { name: 'Office', pathPattern: 'internal/**', cidrs: ['10.0.0.0/8'] } } }),
  'POST /v1/projects/:projectId/ip-allowlists': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/ip-allowlists`, payload: { name: 'Office', cidrs: ['10.0.0.0/8'], paths: ['internal/**'] } } }),
  'POST /v1/projects/:projectId/access-check': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/access-check`, payload: { path: '/limits', ip: '192.0.2.1' } } }),
  'POST /v1/projects/:projectId/previews': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/previews`, payload: { previewName: 'main', label: 'Reviewers' } }, secret: true }),
  'POST /v1/projects/:projectId/preview-passes': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/preview-passes`, payload: { url: `http://main--${w.host}/` } }, secret: true }),
  'POST /v1/projects/:projectId/domains': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/domains`, payload: { domain: 'docs.replay.example' } } }),
  'POST /v1/projects/:projectId/domains/:domainId/verify': async (w) => {
    const domain = await create(w, `/v1/projects/${w.projectId}/domains`, { domain: 'docs.verify.example' });
    return { request: { url: `/v1/projects/${w.projectId}/domains/${domain.id}/verify` } };
  },
  'POST /v1/projects/:projectId/audiences': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/audiences`, payload: { name: 'Partners', slug: 'partners', audiences: ['partners'] } } }),
  'POST /v1/projects/:projectId/audiences/:profileId/token': async (w) => {
    const res = await w.t.app.inject({ method: 'POST', url: `/v1/projects/${w.projectId}/audiences`, headers: bearer(w.t.adminKey), payload: { name: 'Staff', slug: 'staff', audiences: ['staff'] } });
    return { request: { url: `/v1/projects/${w.projectId}/audiences/${(res.json() as { id: string }).id}/token`, payload: { label: 'Ada' } }, secret: true };
  },
  'POST /v1/projects/:projectId/search/reindex': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/search/reindex`, payload: { full: true } } }),
  'POST /v1/projects/:projectId/chat': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/chat`, headers: {}, payload: { question: QUESTIONS.unanswerable, visitorId: 'v-replay-api' } } }),
  'POST /v1/projects/:projectId/feedback/page': async (w) => ({ request: { url: `/v1/projects/${w.projectId}/feedback/page`, headers: {}, payload: { pagePath: '/limits', helpful: true, comment: 'Clear.' } } }),
  'POST /v1/projects/:projectId/feedback/section': async (w) => ({
    request: { url: `/v1/projects/${w.projectId}/feedback/section`, headers: {}, payload: { pagePath: 'limits', sectionId: 'size', vote: 'down' } },
  }),
  'SITE /_quire/feedback/page': async (w) => siteRequest(w, '/_quire/feedback/page', { pagePath: '/limits/', helpful: false, comment: 'Which unit?' }),
  'SITE /_quire/feedback/section': async (w) => siteRequest(w, '/_quire/feedback/section', { pagePath: 'limits', sectionId: 'size', vote: 'up' }),
  'SITE /_quire/chat': async (w) => siteRequest(w, '/_quire/chat', { question: QUESTIONS.unanswerable, visitorId: 'v-replay-site' }),
};
