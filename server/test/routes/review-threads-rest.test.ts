/**
 * The REST side of review threads (the routes and their OpenAPI response shapes): a review-level
 * comment, a suggestion, resolving a thread, the project switch that makes a merge wait for resolved
 * threads, an outdated suggestion refused with 409 and its reason, and the kept revisions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject } from './builds/build-fixture';
import { memberWithKey, reviewRepo, reviewsApi, SETUP } from './reviews-fixture';

let t: TestApp;
let repo: FixtureRepo;
let project: { id: string };
let api: ReturnType<typeof reviewsApi>;
let reviewer: { userId: string; key: string };
const path = 'guides/setup.mdx';
const edited = (line: number, text: string) => SETUP.replace(`Line ${line} of the setup guide.`, text);

beforeAll(async () => {
  t = await createTestApp();
  repo = reviewRepo();
  project = await createProject(t, repo, 'threads');
  api = reviewsApi(t, project.id);
  reviewer = await memberWithKey(t, 'rita@threads.test', 'reviewer', ['projects:read', 'projects:write']);
});
afterAll(async () => {
  await t.close();
  repo.cleanup();
});

describe('review threads over REST', () => {
  it('comments on the whole review, resolves the thread, and the merge waits for resolved threads when the project requires it', async () => {
    const patched = await t.app.inject({ method: 'PATCH', url: `/v1/projects/${project.id}`, headers: bearer(t.adminKey), payload: { settings: { requireResolvedThreads: true } } });
    expect(patched.json().data.settings).toMatchObject({ requireResolvedThreads: true, aiEnabled: true });
    const review = (await api.create({ title: 'Threads', reviewers: [reviewer.userId], changes: [{ path, content: edited(3, 'Line 3, edited.') }] })).json().data;
    expect(review).toMatchObject({ unresolvedCount: 0, resolvedThreadsRequired: true });
    const comment = await api.comment(review.id, { body: 'Reads well overall.' }, reviewer.key);
    expect(comment.statusCode).toBe(201);
    expect(comment.json().data).toMatchObject({ path: null, lineStart: null, lineEnd: null, resolved: false, suggestion: null });
    expect((await api.get(review.id)).json().data.unresolvedCount).toBe(1);

    expect((await api.patch(review.id, { status: 'approved' }, reviewer.key)).statusCode).toBe(200);
    const refused = await api.patch(review.id, { status: 'merged' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'conflict',
      message: '1 thread is unresolved; this project requires every thread resolved before merge.',
      details: { reason: 'unresolved_threads', unresolved: 1 },
    });

    const url = `/v1/projects/${project.id}/reviews/${review.id}/comments/${comment.json().data.id}`;
    const resolved = await t.app.inject({ method: 'PATCH', url, headers: bearer(reviewer.key), payload: { resolved: true } });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().data).toMatchObject({ resolved: true, resolvedBy: { id: reviewer.userId } });
    expect((await api.get(review.id)).json().data.unresolvedCount).toBe(0);
    const bad = await t.app.inject({ method: 'PATCH', url, headers: bearer(reviewer.key), payload: { resolved: 'yes' } });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses an outdated suggestion with 409 and the reason, applies a current one, and lists the kept revisions; review.updated carries the events', async () => {
    const orgId = t.app.bootstrap.orgId!;
    await t.ctx.db.prisma.webhookEndpoint.create({ data: { id: 'whk_threads', projectId: project.id, orgId, url: 'https://hooks.example.com/quire', events: '["review.updated"]', secret: 'sealed' } });
    const review = (await api.create({ title: 'Suggestions', reviewers: [reviewer.userId], changes: [{ path, content: edited(3, 'Line 3, edited.') }] })).json().data;
    const suggest = (line: number, text: string) =>
      api.comment(review.id, { path, lineStart: line, lineEnd: line, body: 'Say it so.', suggestion: { lines: { start: line, end: line }, text } }, reviewer.key);
    const stale = (await suggest(8, 'Line 4, suggested.')).json().data;
    const fresh = (await suggest(10, 'Line 6, suggested.')).json().data;
    expect(fresh.suggestion).toEqual({ lines: { start: 10, end: 10 }, text: 'Line 6, suggested.', applied: false, appliedAt: null, original: 'Line 6 of the setup guide.' });
    const mismatch = await api.comment(review.id, { path, lineStart: 5, lineEnd: 5, body: 'x', suggestion: { lines: { start: 6, end: 6 }, text: 'y' } }, reviewer.key);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.message).toMatch(/suggestion\.lines/);

    await api.patch(review.id, { changes: [{ path, content: edited(3, 'Line 3, edited.').replace('Line 4 of the setup guide.', 'Line 4, by the author.') }] });
    const apply = (commentIds: string[]) =>
      t.app.inject({ method: 'POST', url: `/v1/projects/${project.id}/reviews/${review.id}/suggestions/apply`, headers: bearer(t.adminKey), payload: { commentIds } });
    const refused = await apply([fresh.id, stale.id]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'conflict', details: { reason: 'outdated', commentId: stale.id } });
    expect(refused.json().error.message).toMatch(/is outdated: lines 8-8 of guides\/setup\.mdx changed since it was written/);
    expect((await api.get(review.id)).json().data.revision).toBe(2);

    const applied = await apply([fresh.id]);
    expect(applied.statusCode).toBe(200);
    expect(applied.json().data).toMatchObject({ revision: 3, status: 'open' });
    const revisions = (await t.app.inject({ url: `/v1/projects/${project.id}/reviews/${review.id}/revisions`, headers: bearer(reviewer.key) })).json().data;
    expect(revisions.map((r: { revision: number }) => r.revision)).toEqual([1, 2, 3]);
    expect(revisions[2].files[0].content).toContain('Line 6, suggested.');
    expect(revisions[1].files[0].content).not.toContain('Line 6, suggested.');

    const messages = await t.ctx.db.prisma.webhookMessage.findMany({ where: { endpointId: 'whk_threads' }, orderBy: { createdAt: 'asc' } });
    const events = messages.map((m) => (JSON.parse(m.payload) as { data: { id: string; event?: { kind: string; commentId: string } } }).data);
    expect(events.filter((e) => e.event).map((e) => [e.event!.kind, e.event!.commentId])).toEqual([
      ['suggestion.created', stale.id],
      ['suggestion.created', fresh.id],
      ['suggestion.applied', fresh.id],
    ]);
    expect(events.every((e) => e.id === review.id)).toBe(true);
  });

  it('documents the suggestion shape, resolving, applying and the revisions in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const reviews = '/v1/projects/{projectId}/reviews/{reviewId}';
    const body = doc.paths[`${reviews}/comments`].post.requestBody.content['application/json'].schema;
    const suggestion = body.properties.suggestion;
    expect(suggestion.description).toMatch(/suggested change of the commented lines/);
    expect(suggestion.required).toEqual(['lines', 'text']);
    expect(suggestion.properties.lines.required).toEqual(['start', 'end']);
    expect(suggestion.properties.text.type).toBe('string');
    expect(body.required).toEqual(['body']);
    expect(doc.paths[`${reviews}/comments/{commentId}`].patch.description).toMatch(/resolves the thread/);
    expect(doc.paths[`${reviews}/suggestions/apply`].post.description).toMatch(/outdated: 409 conflict with details.reason "outdated"/);
    expect(doc.paths[`${reviews}/revisions`].get.responses).toHaveProperty('200');
    const settings = doc.paths['/v1/projects/{projectId}'].patch.requestBody.content['application/json'].schema.properties.settings;
    expect(settings.properties.requireResolvedThreads.description).toMatch(/^Default false: true makes a merge of a review wait/);
  });
});
