/**
 * Apps of one installation for schedule tests: every app opened by a {@link SharedStore} uses the
 * same data directory and database (SQLite file, or with `QUIRE_TEST_DB=postgres` one PostgreSQL
 * database), as consecutive runs of a server, or two server processes, would. Apps start with no
 * job runner; `startRunners` starts the schedule runner (and the build runner with a fake builder).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/env';
import { testDatabaseFromEnv } from '../helpers/pg-database';
import { bearer } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import type { fakeBuilder } from './fake-builder';

/** A data directory and database that outlive the apps opened on them. */
export interface SharedStore {
  /** Opens a new app on the store (the first one bootstraps the admin key). */
  open(): Promise<FastifyInstance>;
  /** The bootstrap admin key (known once the first app opened). */
  adminKey(): string;
  /** Closes every app opened (again), drops the database and removes the data directory. */
  cleanup(): Promise<void>;
}

/** Creates a store (`env`: extra settings, e.g. REDIS_URL and QUIRE_QUEUE_PREFIX); call `cleanup()` in `afterEach`/`afterAll`. */
export async function sharedStore(env: Record<string, string> = {}): Promise<SharedStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-schedules-'));
  const database = await testDatabaseFromEnv();
  const config = loadConfig({
    QUIRE_DATA_DIR: dataDir,
    QUIRE_LOG_LEVEL: 'silent',
    QUIRE_ALLOW_FILE_REPOS: '1',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const apps = new Set<FastifyInstance>();
  let key: string | undefined;
  return {
    async open() {
      const app = await buildApp(config, { runJobs: false });
      await app.ready();
      key ??= app.bootstrap.adminKey ?? undefined;
      apps.add(app);
      return app;
    },
    adminKey() {
      if (!key) throw new Error('sharedStore: no app has bootstrapped an admin key yet');
      return key;
    },
    async cleanup() {
      // Closing an app a test already closed is a no-op.
      await Promise.all([...apps].map((a) => a.close()));
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the app's schedule runner (sweeping every 100 ms) and, given a fake builder, its build runner. */
export async function startRunners(app: FastifyInstance, builder?: ReturnType<typeof fakeBuilder>): Promise<void> {
  if (builder) {
    app.buildRunner.configure({ runBuild: builder.runBuild, pollMs: 100 });
    await app.buildRunner.start();
  }
  app.scheduleRunner.configure({ sweepMs: 100, busyRetryMs: 100 });
  await app.scheduleRunner.start();
}

/** Creates a project on `repo` through the API; returns its id. */
export async function createRepoProject(app: FastifyInstance, key: string, repo: FixtureRepo, slug: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(key), payload: { name: slug, slug, repoUrl: repo.path, repoBranch: repo.branch } });
  if (res.statusCode !== 201) throw new Error(`project create failed: ${res.statusCode} ${res.body}`);
  return (res.json().data as { id: string }).id;
}

/** `POST /schedules`; returns the response. */
export function postSchedule(app: FastifyInstance, key: string, projectId: string, body: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `/v1/projects/${projectId}/schedules`, headers: bearer(key), payload: body });
}

/** ISO 8601 (UTC, `Z`) of now plus `ms`. */
export function inMs(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

/** Polls `GET /schedules/{id}` until its status is one of `statuses`; returns the schedule. @throws after `timeoutMs`. */
export async function waitForSchedule(app: FastifyInstance, key: string, projectId: string, scheduleId: string, statuses: string[], timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({ url: `/v1/projects/${projectId}/schedules/${scheduleId}`, headers: bearer(key) });
    const schedule = res.json().data as { status: string; [k: string]: unknown };
    if (statuses.includes(schedule.status)) return schedule;
    if (Date.now() > until) throw new Error(`schedule ${scheduleId} still ${schedule.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls `GET /builds/{id}` until its status is one of `statuses`; returns the build. */
export async function waitForBuild(app: FastifyInstance, key: string, projectId: string, buildId: string, statuses: string[], timeoutMs = 25_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.inject({ url: `/v1/projects/${projectId}/builds/${buildId}`, headers: bearer(key) });
    const build = res.json().data as { status: string; [k: string]: unknown };
    if (statuses.includes(build.status)) return build;
    if (Date.now() > until) throw new Error(`build ${buildId} still ${build.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
