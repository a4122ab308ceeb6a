/**
 * Feedback through the API (interface-spec.md "Feedback (public, no API key needed)", "Limits";
 * decisions.md section 7): 201 `{data: record}` holding the fields sent, comment limits, validation,
 * stats, Bearer association, the authenticated aggregate (pages grouped without slashes, the real
 * `lastFeedbackAt`), feedback from preview hosts kept out of every count, CORS for the project's site
 * origins, the per-IP write limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import { FEEDBACK_WRITE_LIMIT } from '../../src/services/feedback';

let t: TestApp;
let projectId: string;
let slug: string;
let ownerId: string;

/** Each test writes from its own client address, so the per-IP write limit of one never touches another. */
let nextIp = 1;
const freshIp = () => `10.0.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

const post = (kind: 'page' | 'section', payload: unknown, headers: Record<string, string> = {}, ip = freshIp(), id = projectId) =>
  t.app.inject({ method: 'POST', url: `/v1/projects/${id}/feedback/${kind}`, payload: payload as object, headers, remoteAddress: ip });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Feedback Docs' } });
  ({ id: projectId, slug } = res.json().data as { id: string; slug: string });
  const owner = await t.ctx.db.prisma.membership.findFirst({ where: { orgId: t.app.bootstrap.orgId!, role: 'owner' } });
  ownerId = owner!.userId;
});

afterAll(async () => {
  await t?.close();
});

describe('page feedback', () => {
  it('answers 201 with the record: id, the fields sent, createdAt', async () => {
    const res = await post('page', { pagePath: '/guides/setup/', helpful: true, comment: 'Clear steps.', visitorId: 'v-1' });
    expect(res.statusCode).toBe(201);
    const { data } = res.json() as { data: Record<string, unknown> };
    expect(data).toEqual({ id: expect.stringMatching(/^fbk_/), pagePath: '/guides/setup/', helpful: true, comment: 'Clear steps.', visitorId: 'v-1', createdAt: expect.any(String) });
    expect(Number.isNaN(Date.parse(data.createdAt as string))).toBe(false);
  });

  it('counts answers per page: helpful, notHelpful, total', async () => {
    for (const helpful of [true, true, false]) expect((await post('page', { pagePath: 'stats/page', helpful })).statusCode).toBe(201);
    const res = await get(`/v1/projects/${projectId}/feedback/page?pagePath=stats/page`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { helpful: 2, notHelpful: 1, total: 3 } });
    expect((await get(`/v1/projects/${projectId}/feedback/page?pagePath=never/answered`)).json()).toEqual({ data: { helpful: 0, notHelpful: 0, total: 0 } });
  });

  it('takes a comment of 1,000 characters and refuses 1,001', async () => {
    expect((await post('page', { pagePath: 'limits', helpful: false, comment: 'a'.repeat(1000) })).statusCode).toBe(201);
    const res = await post('page', { pagePath: 'limits', helpful: false, comment: 'a'.repeat(1001) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field: 'comment' } });
  });

  it.each([
    [{ helpful: true }, 'pagePath'],
    [{ pagePath: '/', helpful: true }, 'pagePath'],
    [{ pagePath: 'a' }, 'helpful'],
    [{ pagePath: 'a', helpful: 'yes' }, 'helpful'],
    [{ pagePath: 'a', helpful: true, visitorId: 'v'.repeat(101) }, 'visitorId'],
    [{ pagePath: 'a', helpful: true, rating: 5 }, 'rating'],
    [{ pagePath: 'a', helpful: true, comment: 'bad\u0000text' }, 'comment'],
    [{ pagePath: 'a', helpful: true, comment: 'lone \ud800 surrogate' }, 'comment'],
  ])('refuses %j with 400 naming %s, storing nothing', async (payload, field) => {
    const before = await t.ctx.db.prisma.pageFeedback.count();
    const res = await post('page', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field } });
    expect(await t.ctx.db.prisma.pageFeedback.count()).toBe(before);
  });

  it('requires pagePath on the stats query', async () => {
    const res = await get(`/v1/projects/${projectId}/feedback/page`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.field).toBe('pagePath');
  });

  it('answers 404 not_found for an unknown project', async () => {
    const res = await post('page', { pagePath: 'a', helpful: true }, {}, freshIp(), 'prj_unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    expect((await get('/v1/projects/prj_unknown/feedback/section?pagePath=a')).statusCode).toBe(404);
  });
});

describe('section feedback', () => {
  it('answers 201 with the record and counts votes per section', async () => {
    const res = await post('section', { pagePath: 'votes', sectionId: '#install-the-cli', vote: 'up', comment: 'Worked.' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toEqual({ id: expect.stringMatching(/^sfb_/), pagePath: 'votes', sectionId: 'install-the-cli', vote: 'up', comment: 'Worked.', visitorId: null, createdAt: expect.any(String) });
    await post('section', { pagePath: 'votes', sectionId: 'install-the-cli', vote: 'down' });
    await post('section', { pagePath: 'votes', sectionId: 'configure', vote: 'down' });
    const stats = await get(`/v1/projects/${projectId}/feedback/section?pagePath=votes`);
    expect(stats.json()).toEqual({
      data: [
        { sectionId: 'configure', upvotes: 0, downvotes: 1 },
        { sectionId: 'install-the-cli', upvotes: 1, downvotes: 1 },
      ],
    });
  });

  it('takes a comment of 500 characters and refuses 501', async () => {
    expect((await post('section', { pagePath: 'votes', sectionId: 'long', vote: 'up', comment: 'b'.repeat(500) })).statusCode).toBe(201);
    const res = await post('section', { pagePath: 'votes', sectionId: 'long', vote: 'up', comment: 'b'.repeat(501) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.field).toBe('comment');
  });

  it.each([
    [{ pagePath: 'votes', sectionId: 'x', vote: 'sideways' }, 'vote'],
    [{ pagePath: 'votes', sectionId: 'x' }, 'vote'],
    [{ pagePath: 'votes', vote: 'up' }, 'sectionId'],
    [{ pagePath: 'votes', sectionId: 'two words', vote: 'up' }, 'sectionId'],
    [{ sectionId: 'x', vote: 'up' }, 'pagePath'],
    [{ pagePath: 'votes', sectionId: 'x\u0000', vote: 'up' }, 'sectionId'],
  ])('refuses %j with 400 naming %s', async (payload, field) => {
    const res = await post('section', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field } });
  });
});

describe('who sent it', () => {
  const commentsOf = async (pagePath: string) => {
    const res = await get(`/v1/projects/${projectId}/feedback/pages?pageSize=100`, bearer(t.adminKey));
    const page = (res.json().data as Array<{ pagePath: string; comments: Array<{ comment: string; userId: string | null }> }>).find(
      (p) => p.pagePath === pagePath,
    );
    return page?.comments ?? [];
  };

  it("associates feedback sent with a key of the project's organization with the key's user", async () => {
    const { key } = await createKey(t, ['projects:read']);
    expect((await post('page', { pagePath: 'who', helpful: true, comment: 'with key' }, bearer(key))).statusCode).toBe(201);
    expect((await post('section', { pagePath: 'who', sectionId: 'a', vote: 'down', comment: 'section with key' }, bearer(key))).statusCode).toBe(201);
    const comments = await commentsOf('who');
    expect(comments.find((c) => c.comment === 'with key')?.userId).toBe(ownerId);
    expect(comments.find((c) => c.comment === 'section with key')?.userId).toBe(ownerId);
  });

  it('keeps feedback anonymous without a key, with an invalid key, and with a key of another organization', async () => {
    const other = await createOrgWithKey(t);
    expect((await post('page', { pagePath: 'anon', helpful: true, comment: 'no key' })).statusCode).toBe(201);
    expect((await post('page', { pagePath: 'anon', helpful: true, comment: 'bad key' }, bearer('quire_nothing1_notarealkeynotarealkeynotarealkey00'))).statusCode).toBe(201);
    expect((await post('page', { pagePath: 'anon', helpful: true, comment: 'foreign key' }, bearer(other.key))).statusCode).toBe(201);
    const comments = await commentsOf('anon');
    expect(comments.map((c) => [c.comment, c.userId]).sort()).toEqual([['bad key', null], ['foreign key', null], ['no key', null]]);
  });
});

describe('feedback across pages', () => {
  it('needs an API key with projects:read', async () => {
    expect((await get(`/v1/projects/${projectId}/feedback/pages`)).statusCode).toBe(401);
    const { key } = await createKey(t, ['search:read']);
    expect((await get(`/v1/projects/${projectId}/feedback/pages`, bearer(key))).statusCode).toBe(403);
    const other = await createOrgWithKey(t);
    expect((await get(`/v1/projects/${projectId}/feedback/pages`, bearer(other.key))).statusCode).toBe(404);
  });

  it('lists every page with its answers, section votes and latest comments, paginated', async () => {
    await post('page', { pagePath: 'agg/one', helpful: false, comment: 'Missing an example.' });
    await post('page', { pagePath: 'agg/one', helpful: true });
    await post('section', { pagePath: 'agg/one', sectionId: 'usage', vote: 'down', comment: 'Outdated flag.' });
    const res = await get(`/v1/projects/${projectId}/feedback/pages?sort=recent&pageSize=1`, bearer(t.adminKey));
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: Array<Record<string, unknown>>; pagination: { page: number; pageSize: number; total: number; totalPages: number } };
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({
      pagePath: 'agg/one',
      helpful: 1,
      notHelpful: 1,
      total: 2,
      sections: [{ sectionId: 'usage', upvotes: 0, downvotes: 1 }],
      comments: [
        { sectionId: 'usage', helpful: false, comment: 'Outdated flag.', userId: null },
        { sectionId: null, helpful: false, comment: 'Missing an example.', userId: null },
      ],
    });
    expect(body.pagination).toMatchObject({ page: 1, pageSize: 1 });
    expect(body.pagination.total).toBeGreaterThanOrEqual(5);
    expect(body.pagination.totalPages).toBe(body.pagination.total);
    for (let i = 0; i < 3; i++) await post('page', { pagePath: 'agg/worst', helpful: false });
    const byNotHelpful = (await get(`/v1/projects/${projectId}/feedback/pages?sort=notHelpful&pageSize=1`, bearer(t.adminKey))).json().data[0];
    expect(byNotHelpful).toMatchObject({ pagePath: 'agg/worst', notHelpful: 3, comments: [] });
  });

  it('refuses an unknown sort and page 0', async () => {
    for (const query of ['sort=best', 'page=0']) {
      const res = await get(`/v1/projects/${projectId}/feedback/pages?${query}`, bearer(t.adminKey));
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
    }
  });
});

describe('what the record keeps and how pages are counted', () => {
  it('answers pagePath as sent, and counts /quickstart and quickstart/ as one page, listed as quickstart', async () => {
    const page = await post('page', { pagePath: '/quickstart', helpful: true });
    expect(page.json().data.pagePath).toBe('/quickstart');
    expect((await t.ctx.db.prisma.pageFeedback.findUniqueOrThrow({ where: { id: page.json().data.id } })).pagePath).toBe('/quickstart');
    expect((await post('page', { pagePath: 'quickstart/', helpful: false })).json().data.pagePath).toBe('quickstart/');
    const vote = await post('section', { pagePath: '/quickstart', sectionId: 'install', vote: 'up' });
    expect(vote.json().data).toMatchObject({ pagePath: '/quickstart', sectionId: 'install' });
    for (const query of ['quickstart', '/quickstart', 'quickstart/']) {
      expect((await get(`/v1/projects/${projectId}/feedback/page?pagePath=${encodeURIComponent(query)}`)).json().data).toEqual({ helpful: 1, notHelpful: 1, total: 2 });
      expect((await get(`/v1/projects/${projectId}/feedback/section?pagePath=${encodeURIComponent(query)}`)).json().data).toEqual([{ sectionId: 'install', upvotes: 1, downvotes: 0 }]);
    }
    const listed = (await get(`/v1/projects/${projectId}/feedback/pages?pageSize=100`, bearer(t.adminKey))).json().data as Array<{ pagePath: string }>;
    expect(listed.filter((p) => p.pagePath.replaceAll('/', '') === 'quickstart')).toEqual([
      expect.objectContaining({ pagePath: 'quickstart', helpful: 1, notHelpful: 1, total: 2, sections: [{ sectionId: 'install', upvotes: 1, downvotes: 0 }] }),
    ]);
  });

  it('reports lastFeedbackAt as the arrival of the page\'s newest answer or vote, and sorts recent pages first', async () => {
    const startedAt = Date.now();
    await post('page', { pagePath: 'timed/older', helpful: true });
    await post('page', { pagePath: 'timed/newer', helpful: true });
    const vote = (await post('section', { pagePath: '/timed/newer/', sectionId: 'last', vote: 'down' })).json().data as { createdAt: string };
    const listed = (await get(`/v1/projects/${projectId}/feedback/pages?sort=recent&pageSize=100`, bearer(t.adminKey))).json().data as Array<{ pagePath: string; lastFeedbackAt: string }>;
    expect(listed[0]).toMatchObject({ pagePath: 'timed/newer', lastFeedbackAt: vote.createdAt });
    const older = listed.find((p) => p.pagePath === 'timed/older')!;
    expect(Date.parse(older.lastFeedbackAt)).toBeGreaterThanOrEqual(startedAt - 1_000);
    expect(Date.parse(older.lastFeedbackAt)).toBeLessThanOrEqual(Date.parse(vote.createdAt));
  });
});

describe('feedback from a preview host', () => {
  const previewOrigin = () => `https://pr-7--${slug}-docs.localhost:4000`;

  beforeAll(async () => {
    const build = await t.ctx.db.prisma.build.create({ data: { id: newId('build'), projectId, branch: 'pr-7', status: 'deployed', trigger: 'api', isPreview: true } });
    await t.ctx.db.prisma.deployment.create({ data: { id: newId('deployment'), projectId, buildId: build.id, kind: 'preview', previewName: 'pr-7', dir: 'x' } });
    t.ctx.events.emit('deployment.changed', { projectId });
  });

  it('is stored as preview feedback and counted nowhere: not in the stats, not in the aggregate', async () => {
    const aggregate = async () => (await get(`/v1/projects/${projectId}/feedback/pages?pageSize=100`, bearer(t.adminKey))).json().data as Array<{ pagePath: string }>;
    const before = await aggregate();
    const page = await post('page', { pagePath: 'previewed', helpful: false, comment: 'Draft wording.' }, { origin: previewOrigin() });
    expect(page.statusCode).toBe(201);
    expect(page.headers['access-control-allow-origin']).toBe(previewOrigin());
    expect((await post('section', { pagePath: 'previewed', sectionId: 'intro', vote: 'down' }, { origin: previewOrigin() })).statusCode).toBe(201);
    expect((await t.ctx.db.prisma.pageFeedback.findUniqueOrThrow({ where: { id: page.json().data.id } })).deployment).toBe('preview');
    expect((await get(`/v1/projects/${projectId}/feedback/page?pagePath=previewed`)).json().data).toEqual({ helpful: 0, notHelpful: 0, total: 0 });
    expect((await get(`/v1/projects/${projectId}/feedback/section?pagePath=previewed`)).json().data).toEqual([]);
    expect(await aggregate()).toEqual(before);
    // the same answer from the production site (or without an Origin) counts
    expect((await post('page', { pagePath: 'previewed', helpful: true }, { origin: `http://${slug}-docs.localhost:4000` })).statusCode).toBe(201);
    expect((await get(`/v1/projects/${projectId}/feedback/page?pagePath=previewed`)).json().data).toEqual({ helpful: 1, notHelpful: 0, total: 1 });
  });
});

describe('CORS for the project site origins', () => {
  const siteOrigin = () => `http://${slug}-docs.localhost:4000`;

  it('allows the production site origin on answers and preflights', async () => {
    const res = await post('page', { pagePath: 'cors', helpful: true }, { origin: siteOrigin() });
    expect(res.statusCode).toBe(201);
    expect(res.headers['access-control-allow-origin']).toBe(siteOrigin());
    expect(res.headers.vary).toContain('Origin');
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: `/v1/projects/${projectId}/feedback/section`,
      headers: { origin: siteOrigin(), 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': siteOrigin(),
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-max-age': '600',
    });
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('Content-Type');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('Authorization');
  });

  it('allows an active custom domain and a deployed preview host, and sends CORS headers on errors too', async () => {
    const project = await t.ctx.db.prisma.project.findUniqueOrThrow({ where: { id: projectId } });
    await t.ctx.db.prisma.domain.create({ data: { id: newId('domain'), projectId, domain: 'docs.example.com', status: 'active', verificationToken: 'x' } });
    const build = await t.ctx.db.prisma.build.create({ data: { id: newId('build'), projectId, branch: 'feature-x', status: 'deployed', trigger: 'api', isPreview: true } });
    await t.ctx.db.prisma.deployment.create({ data: { id: newId('deployment'), projectId, buildId: build.id, kind: 'preview', previewName: 'feature-x', dir: 'x' } });
    t.ctx.events.emit('project.changed', { projectId, slug: project.slug });
    for (const origin of ['https://docs.example.com', `http://feature-x--${slug}-docs.localhost:4000`]) {
      const res = await get(`/v1/projects/${projectId}/feedback/page?pagePath=cors`, { origin });
      expect(res.headers['access-control-allow-origin']).toBe(origin);
    }
    const bad = await post('page', { helpful: true }, { origin: 'https://docs.example.com' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['access-control-allow-origin']).toBe('https://docs.example.com');
  });

  it('sends no CORS headers to another origin, and a preflight from it allows nothing', async () => {
    const res = await get(`/v1/projects/${projectId}/feedback/page?pagePath=cors`, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({ method: 'OPTIONS', url: `/v1/projects/${projectId}/feedback/page`, headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('sends no CORS headers on the authenticated aggregate', async () => {
    const res = await get(`/v1/projects/${projectId}/feedback/pages`, { ...bearer(t.adminKey), origin: siteOrigin() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('per-IP write limit', () => {
  it(`answers 429 rate_limited with Retry-After after ${FEEDBACK_WRITE_LIMIT} writes a minute from one address, others unaffected`, async () => {
    const ip = freshIp();
    // counted in fixed one-minute windows: a window may end during the loop, so allow up to two windows' worth
    let accepted = 0;
    let limited: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i <= 2 * FEEDBACK_WRITE_LIMIT && !limited; i++) {
      const kind = i % 2 === 0 ? 'page' : 'section';
      const res = await post(kind, kind === 'page' ? { pagePath: 'flood', helpful: true } : { pagePath: 'flood', sectionId: 's', vote: 'up' }, { origin: `http://${slug}-docs.localhost:4000` }, ip);
      if (res.statusCode === 429) limited = res;
      else {
        expect(res.statusCode).toBe(201);
        accepted++;
      }
    }
    expect(accepted).toBeGreaterThanOrEqual(FEEDBACK_WRITE_LIMIT);
    expect(limited?.json().error.code).toBe('rate_limited');
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited!.headers['access-control-allow-origin']).toBe(`http://${slug}-docs.localhost:4000`);
    const stored = (await t.ctx.db.prisma.pageFeedback.count({ where: { pagePath: 'flood' } })) + (await t.ctx.db.prisma.sectionFeedback.count({ where: { pagePath: 'flood' } }));
    expect(stored).toBe(accepted);
    expect((await get(`/v1/projects/${projectId}/feedback/page?pagePath=flood`)).statusCode).toBe(200);
    expect((await post('page', { pagePath: 'flood', helpful: true }, {}, freshIp())).statusCode).toBe(201);
  });
});
