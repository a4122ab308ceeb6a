/**
 * A server process restarted while clients keep writing: every write it answered 2xx is still
 * there afterwards, after a graceful stop (SIGTERM: running requests finish) and after a crash
 * (SIGKILL: an answered write was committed before the answer), and a build accepted with 202 just
 * before the crash is built after the restart. Runs on SQLite, and on PostgreSQL under
 * `pnpm test:pg`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixtureRepo } from '../helpers/git-repo';
import { testDatabaseFromEnv } from '../helpers/pg-database';
import { api, freePort, startQuire, waitUntil, type QuireProcess } from './processes';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a server restarted while requests run', () => {
  it('loses no accepted write across a SIGTERM and a SIGKILL, and builds the build it accepted', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-restart-'));
    const database = await testDatabaseFromEnv();
    const repo = createFixtureRepo(undefined, {
      extraFiles: { 'docs.json': JSON.stringify({ name: 'Docs', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } }), 'index.mdx': '# Home\n\nBuilt after the crash.\n' },
    });
    const adminKey = `sk_live_${randomBytes(24).toString('hex')}`;
    const env: NodeJS.ProcessEnv = { ...process.env, QUIRE_DATA_DIR: dataDir, QUIRE_ADMIN_KEY: adminKey, QUIRE_ALLOW_FILE_REPOS: '1', QUIRE_LOG_LEVEL: 'warn' };
    delete env.REDIS_URL;
    if (database) env.DATABASE_URL = database.url;
    else delete env.DATABASE_URL;
    const port = await freePort();
    let server: QuireProcess = await startQuire('server', env, port);
    cleanups.push(async () => {
      await server.stop('SIGKILL');
      await database?.drop();
      repo.cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    // Four clients create projects in a loop; a refused connection is retried, an answer is recorded.
    const accepted: string[] = [];
    const statuses = new Map<number, number>();
    let writing = true;
    let n = 0;
    const client = async (c: number) => {
      while (writing) {
        const slug = `w${c}-${n++}`;
        try {
          const res = await api(server.base, adminKey, 'POST', '/v1/projects', { name: slug, slug, repoUrl: repo.path });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 201) accepted.push(res.json.data.id as string);
          else expect(res.json?.error?.code, `status ${res.status}`).toBeTypeOf('string');
        } catch {
          await sleep(20); // connection refused or reset: the server is restarting; nothing was answered
        }
      }
    };
    const clients = [0, 1, 2, 3].map(client);

    await waitUntil('some writes before the SIGTERM', () => (accepted.length >= 20 ? true : undefined), 20_000);
    expect(await server.stop('SIGTERM')).toBe(0);
    server = await startQuire('server', env, port);
    const beforeKill = accepted.length;
    await waitUntil('some writes after the first restart', () => (accepted.length >= beforeKill + 20 ? true : undefined), 20_000);

    // A build accepted just before the crash.
    const project = await api(server.base, adminKey, 'POST', '/v1/projects', { name: 'docs', slug: 'docs', repoUrl: repo.path, repoBranch: repo.branch });
    expect(project.status).toBe(201);
    const trig = await api(server.base, adminKey, 'POST', `/v1/projects/${project.json.data.id}/builds`);
    expect(trig.status).toBe(202);
    await server.stop('SIGKILL');
    server = await startQuire('server', env, port);
    await sleep(300);
    writing = false;
    await Promise.all(clients);

    // Every answered write is there, and no request got a server error.
    expect(accepted.length).toBeGreaterThan(40);
    for (const id of accepted) {
      const got = await api(server.base, adminKey, 'GET', `/v1/projects/${id}`);
      expect(got.status, `project ${id} answered 201 but is gone`).toBe(200);
    }
    expect([...statuses.keys()].filter((s) => s >= 500 && s !== 503)).toEqual([]);
    const build = await waitUntil('the accepted build to be deployed after the crash', async () => {
      const r = await api(server.base, adminKey, 'GET', `/v1/projects/${project.json.data.id}/builds/${trig.json.data.id}`);
      return ['deployed', 'failed', 'cancelled'].includes(r.json.data.status) ? r.json.data : undefined;
    }, 60_000);
    expect(build.status).toBe('deployed');
  }, 120_000);
});
