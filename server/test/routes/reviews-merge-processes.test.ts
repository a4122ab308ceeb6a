/**
 * Two server processes on one PostgreSQL database merge reviews of one project one at a time: a
 * second merge waits for the first (the database's session lock of the project), so the same
 * approved review is pushed once and the second merge answers 409 without touching the repository;
 * two reviews of one project are both merged, one after the other.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/app';
import { requirePostgres } from '../helpers/services';
import { createTempDatabase, type TempDatabase } from '../helpers/pg-database';
import type { FixtureRepo } from '../helpers/git-repo';
import { sharedStore, type SharedStore } from '../jobs/schedule-fixture';
import { createProject } from './builds/build-fixture';
import { gitIn, memberWithKey, reviewRepo, reviewsApi, SETUP } from './reviews-fixture';
import type * as Usage from '../../src/services/usage';

/** Counts the merges that got past the lock (each looks up the build usage first) and runs a hook in the first. */
const hook = vi.hoisted(() => ({ entered: 0, duringFirst: null as null | (() => Promise<void>) }));
vi.mock('../../src/services/usage', async (importOriginal) => {
  const actual = await importOriginal<typeof Usage>();
  return {
    ...actual,
    getUsage: async (...args: Parameters<typeof actual.getUsage>) => {
      hook.entered++;
      const run = hook.duringFirst;
      hook.duringFirst = null;
      if (run) await run();
      return actual.getUsage(...args);
    },
  };
});

const postgres = await requirePostgres();

let store: SharedStore | undefined;
let database: TempDatabase | undefined;
let repo: FixtureRepo | undefined;

afterEach(async () => {
  await store?.cleanup();
  await database?.drop();
  repo?.cleanup();
  store = undefined;
  database = undefined;
  repo = undefined;
  hook.entered = 0;
  hook.duringFirst = null;
});

/** An app of the store as the review fixtures take it. */
function asTestApp(app: FastifyInstance, adminKey: string): TestApp {
  return { app, adminKey, ctx: app.ctx, dataDir: app.ctx.config.dataDir, close: () => app.close() };
}

/** Two apps on one new PostgreSQL database, a project on a review repository, and a reviewer. */
async function twoProcesses() {
  database = await createTempDatabase(postgres!.url);
  store = await sharedStore({ DATABASE_URL: database.url });
  const a = asTestApp(await store.open(), '');
  const b = asTestApp(await store.open(), '');
  a.adminKey = b.adminKey = store.adminKey();
  repo = reviewRepo();
  const projectId = (await createProject(a, repo, 'acme')).id;
  const reviewer = await memberWithKey(a, 'rita@acme.test', 'reviewer', ['projects:read', 'projects:write']);
  const approved = async (line: number) => {
    const created = await reviewsApi(a, projectId).create({
      title: `Line ${line}`,
      reviewers: [reviewer.userId],
      changes: [{ path: 'guides/setup.mdx', content: SETUP.replace(`Line ${line} `, `CHANGED line ${line} `) }],
    });
    const id = created.json().data.id as string;
    expect((await reviewsApi(a, projectId).patch(id, { status: 'approved' }, reviewer.key)).json().data.status).toBe('approved');
    return id;
  };
  return { a, b, projectId, approved };
}

/** Resolves once a session waits for an advisory lock on the database (the second merge, blocked). */
async function someoneWaitsForALock(t: TestApp): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const rows = await t.ctx.db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
    if (Number(rows[0]!.n) > 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no session waited for an advisory lock');
}

describe.skipIf(!postgres)('merges of one project in two server processes on PostgreSQL', () => {
  it('push the same review once: the second merge waits, then answers 409 "merged" without pushing', async () => {
    const { a, b, projectId, approved } = await twoProcesses();
    const id = await approved(3);
    const head = repo!.headSha();

    let second: Promise<LightMyRequestResponse> | undefined;
    let enteredWhileFirstRan = -1;
    hook.duringFirst = async () => {
      second = reviewsApi(b, projectId).patch(id, { status: 'merged' });
      await someoneWaitsForALock(a);
      enteredWhileFirstRan = hook.entered - 1;
    };
    const first = await reviewsApi(a, projectId).patch(id, { status: 'merged' });
    const other = await second!;

    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ status: 'merged' });
    expect(enteredWhileFirstRan).toBe(0);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toMatchObject({ code: 'conflict', message: expect.stringContaining('cannot go from "merged" to "merged"') });
    expect(gitIn(repo!, ['rev-list', '--count', `${head}..${repo!.branch}`])).toBe('1');
    expect(gitIn(repo!, ['show', `${repo!.branch}:guides/setup.mdx`])).toContain('CHANGED line 3 ');
    const builds = (await b.app.inject({ url: `/v1/projects/${projectId}/builds`, headers: { authorization: `Bearer ${b.adminKey}` } })).json().data as Array<{ isPreview: boolean }>;
    expect(builds.filter((build) => !build.isPreview)).toHaveLength(1);
  });

  it('merge two reviews of the project one after the other, both on the branch', async () => {
    const { a, b, projectId, approved } = await twoProcesses();
    const one = await approved(2);
    const two = await approved(7);
    const head = repo!.headSha();

    let second: Promise<LightMyRequestResponse> | undefined;
    let enteredWhileFirstRan = -1;
    hook.duringFirst = async () => {
      second = reviewsApi(b, projectId).patch(two, { status: 'merged' });
      await someoneWaitsForALock(a);
      enteredWhileFirstRan = hook.entered - 1;
    };
    const first = await reviewsApi(a, projectId).patch(one, { status: 'merged' });
    const other = await second!;

    expect(enteredWhileFirstRan).toBe(0);
    expect([first.statusCode, other.statusCode]).toEqual([200, 200]);
    expect(gitIn(repo!, ['rev-list', '--count', `${head}..${repo!.branch}`])).toBe('2');
    const text = gitIn(repo!, ['show', `${repo!.branch}:guides/setup.mdx`]);
    expect(text).toContain('CHANGED line 2 ');
    expect(text).toContain('CHANGED line 7 ');
  });
});
