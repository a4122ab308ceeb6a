import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject, docsRepo } from './builds/build-fixture';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;

beforeAll(async () => {
  t = await createTestApp();
  repo = docsRepo();
  projectId = (await createProject(t, repo, 'sched')).id;
});
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

const url = (suffix = '') => `/v1/projects/${projectId}/schedules${suffix}`;
const post = (payload: Record<string, unknown>, key = t.adminKey, pid = projectId) =>
  t.app.inject({ method: 'POST', url: `/v1/projects/${pid}/schedules`, headers: bearer(key), payload });
const get = (suffix = '', key = t.adminKey) => t.app.inject({ url: url(suffix), headers: bearer(key) });
const del = (id: string, key = t.adminKey) => t.app.inject({ method: 'DELETE', url: url(`/${id}`), headers: bearer(key) });
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const HOUR = 3600_000;

/** The project's newest audit entry of one action. */
async function lastAudit(action: string) {
  const res = await t.app.inject({ url: `/v1/projects/${projectId}/audit-log?limit=100`, headers: bearer(t.adminKey) });
  return (res.json().data as Array<{ action: string }>).find((e) => e.action === action);
}

async function addReview(status: string): Promise<string> {
  const row = await t.ctx.db.prisma.review.create({
    data: { id: newId('review'), projectId, title: `A ${status} review`, status, source: 'changes', branch: 'main', baseCommit: repo.headSha() },
  });
  return row.id;
}

describe('scheduled publishing: create, list, get, cancel', () => {
  it('schedules the production branch and answers the schedule, made by the caller', async () => {
    const at = inMs(2 * HOUR);
    const res = await post({ ref: 'main', at });
    expect(res.statusCode).toBe(201);
    const s = res.json().data;
    expect(s).toEqual({
      id: expect.stringMatching(/^sch_/),
      kind: 'ref',
      ref: 'main',
      at,
      status: 'scheduled',
      late: false,
      ranAt: null,
      buildId: null,
      error: null,
      createdBy: { id: expect.stringMatching(/^usr_/), name: expect.any(String), email: expect.stringContaining('@') },
      createdAt: expect.any(String),
    });
    expect((await get(`/${s.id}`)).json().data).toEqual(s);
    expect(await lastAudit('schedule.created')).toMatchObject({ action: 'schedule.created', resource: { type: 'schedule', id: s.id }, metadata: { kind: 'ref', ref: 'main', at } });
  });

  it('takes a time with any offset and a full commit SHA in any case, and answers them normalised', async () => {
    const local = new Date(Date.now() + 3 * HOUR);
    const plus2 = new Date(local.getTime() + 2 * HOUR).toISOString().replace(/\.\d{3}Z$/, '+02:00');
    const sha = repo.headSha();
    const res = await post({ ref: sha.toUpperCase(), at: plus2 });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ kind: 'ref', ref: sha, at: new Date(plus2).toISOString() });
  });

  it('lists soonest first, filters by status and paginates', async () => {
    const later = (await post({ ref: 'main', at: inMs(30 * HOUR) })).json().data;
    const sooner = (await post({ ref: 'main', at: inMs(HOUR) })).json().data;
    const all = (await get()).json();
    const times = all.data.map((s: { at: string }) => s.at);
    expect(times).toEqual([...times].sort());
    expect(all.data[0].id).toBe(sooner.id);
    expect(all.data.at(-1).id).toBe(later.id);
    expect(all.pagination).toEqual({ page: 1, pageSize: 20, total: all.data.length, totalPages: 1 });
    const page2 = (await get('?pageSize=1&page=2')).json();
    expect(page2.data).toHaveLength(1);
    expect(page2.data[0].id).toBe(all.data[1].id);
    expect(page2.pagination).toMatchObject({ page: 2, pageSize: 1, total: all.data.length });
    expect((await del(later.id)).statusCode).toBe(204);
    expect((await get('?status=cancelled')).json().data.map((s: { id: string }) => s.id)).toEqual([later.id]);
    expect((await get('?status=scheduled')).json().data.map((s: { id: string }) => s.id)).not.toContain(later.id);
    expect((await get('?status=sleeping')).json().error.details.field).toBe('status');
  });

  it('cancels a scheduled schedule (audited), and answers 409 naming the state for one already cancelled, running or done', async () => {
    const s = (await post({ ref: 'main', at: inMs(HOUR) })).json().data;
    expect((await del(s.id)).statusCode).toBe(204);
    expect((await get(`/${s.id}`)).json().data.status).toBe('cancelled');
    const again = await del(s.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/already cancelled/);
    expect(await lastAudit('schedule.cancelled')).toMatchObject({ resource: { type: 'schedule', id: s.id } });
    for (const status of ['running', 'done', 'failed']) {
      const other = (await post({ ref: 'main', at: inMs(HOUR) })).json().data;
      await t.ctx.db.prisma.schedule.update({ where: { id: other.id }, data: { status } });
      const res = await del(other.id);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'conflict', details: { status } });
      expect(res.json().error.message).toContain(`already ${status}`);
    }
  });
});

describe('scheduled publishing: bad input', () => {
  async function expectRefused(body: Record<string, unknown>, field: string, issue?: RegExp) {
    const before = await t.ctx.db.prisma.schedule.count();
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field } });
    if (issue) expect(res.json().error.details.issue).toMatch(issue);
    expect(await t.ctx.db.prisma.schedule.count()).toBe(before);
  }

  it('refuses an `at` without an offset, in the past, more than a year ahead, or not a time', async () => {
    const noOffset = inMs(HOUR).replace(/Z$/, '');
    await expectRefused({ ref: 'main', at: noOffset }, 'at', /offset/);
    await expectRefused({ ref: 'main', at: inMs(-5 * 60_000) }, 'at', /future/);
    await expectRefused({ ref: 'main', at: inMs(400 * 24 * HOUR) }, 'at', /year/);
    await expectRefused({ ref: 'main', at: 'tomorrow' }, 'at');
    await expectRefused({ ref: 'main' }, 'at');
  });

  it('accepts a time up to a minute in the past (clock skew): it runs at once', async () => {
    const res = await post({ ref: 'main', at: inMs(-20_000) });
    expect(res.statusCode).toBe(201);
  });

  it('refuses a bad ref, another branch than the production one, and anything but exactly one of ref and reviewId', async () => {
    await expectRefused({ ref: '-x', at: inMs(HOUR) }, 'ref');
    await expectRefused({ ref: 'a..b', at: inMs(HOUR) }, 'ref');
    await expectRefused({ ref: 'feature/x', at: inMs(HOUR) }, 'ref', /production branch \(main\)/);
    await expectRefused({ at: inMs(HOUR) }, 'ref', /exactly one/);
    await expectRefused({ ref: 'main', reviewId: 'rev_x', at: inMs(HOUR) }, 'ref', /exactly one/);
    await expectRefused({ ref: 'main', at: inMs(HOUR), extra: 1 }, 'extra');
  });

  it('answers 404 for unknown or foreign projects and schedules, and for an unknown review', async () => {
    const mine = (await post({ ref: 'main', at: inMs(HOUR) })).json().data;
    expect((await get('/sch_nope')).statusCode).toBe(404);
    expect((await del('sch_nope')).statusCode).toBe(404);
    expect((await post({ reviewId: 'rev_nope', at: inMs(HOUR) })).statusCode).toBe(404);
    expect((await post({ ref: 'main', at: inMs(HOUR) }, t.adminKey, 'prj_nope')).statusCode).toBe(404);
    const other = await createOrgWithKey(t);
    expect((await get(`/${mine.id}`, other.key)).statusCode).toBe(404);
    expect((await get('', other.key)).statusCode).toBe(404);
    expect((await del(mine.id, other.key)).statusCode).toBe(404);
    expect((await post({ ref: 'main', at: inMs(HOUR) }, other.key)).statusCode).toBe(404);
    expect((await get(`/${mine.id}`)).json().data.status).toBe('scheduled');
  });
});

describe('scheduled publishing: who may schedule', () => {
  it('lets a read key list but not create or cancel (403)', async () => {
    const { key } = await createKey(t, ['projects:read']);
    const mine = (await post({ ref: 'main', at: inMs(HOUR) })).json().data;
    expect((await get('', key)).statusCode).toBe(200);
    expect((await post({ ref: 'main', at: inMs(HOUR) }, key)).statusCode).toBe(403);
    expect((await del(mine.id, key)).statusCode).toBe(403);
  });

  it('needs builds:write to schedule a ref, and refuses test keys (they never change production)', async () => {
    const writer = await createKey(t, ['projects:read', 'projects:write']);
    const res = await post({ ref: 'main', at: inMs(HOUR) }, writer.key);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toContain('builds:write');
    const test = await createKey(t, ['admin'], { mode: 'test' });
    const refused = await post({ ref: 'main', at: inMs(HOUR) }, test.key);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/Test keys/);
  });
});

describe('scheduled publishing: review merges', () => {
  it('schedules an open review to merge, once; refuses a merged one (409 naming its state)', async () => {
    const reviewId = await addReview('approved');
    const at = inMs(HOUR);
    const res = await post({ reviewId, at });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ kind: 'review', reviewId, at, status: 'scheduled' });
    expect(res.json().data).not.toHaveProperty('ref');
    const twice = await post({ reviewId, at: inMs(2 * HOUR) });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.details.scheduleId).toBe(res.json().data.id);
    const merged = await post({ reviewId: await addReview('merged'), at });
    expect(merged.statusCode).toBe(409);
    expect(merged.json().error.message).toMatch(/is merged/);
  });
});

describe('scheduled publishing: OpenAPI document', () => {
  it('documents the four routes with their body and responses', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const path = doc.paths['/v1/projects/{projectId}/schedules'];
    const one = doc.paths['/v1/projects/{projectId}/schedules/{scheduleId}'];
    for (const op of [path.get, path.post, one.get, one.delete]) {
      expect(op.tags).toEqual(['Scheduled publishing']);
      expect(op.summary).toEqual(expect.any(String));
      expect(op.description).toEqual(expect.any(String));
    }
    expect(Object.keys(path.post.requestBody.content['application/json'].schema.properties).sort()).toEqual(['at', 'ref', 'reviewId']);
    expect(path.post.responses).toHaveProperty('201');
    expect(path.post.responses).toHaveProperty('400');
    expect(one.delete.responses).toHaveProperty('204');
    expect(one.delete.responses).toHaveProperty('409');
  });
});
