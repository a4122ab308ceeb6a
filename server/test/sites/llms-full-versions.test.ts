import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { createProject, trigger, waitForStatus } from '../routes/builds/build-fixture';
import { versionedRepo } from '../versions/versioned-repo';
import { issueToken } from './gate-fixture';

/**
 * `llms-full.txt` and the agents' Link header of documentation versions (interface-spec.md
 * "Documentation versions"; decisions.md section 6): each version deployment has its own file under
 * `/<label>/`, naming its own URLs, gated like the production one, and its pages point at it.
 */
const HOST = 'acme-docs.localhost:4000';

describe('llms-full.txt of documentation versions', () => {
  let t: TestApp;
  let repo: FixtureRepo;
  let internal: string;
  const site = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { host: HOST, ...headers } });

  beforeAll(async () => {
    t = await createTestApp();
    repo = versionedRepo();
    const project = await createProject(t, repo, 'acme');
    t.app.buildRunner.configure({ pollMs: 100 });
    await t.app.buildRunner.start();
    const started = new Date();
    const prod = (await trigger(t, project.id)).json().data;
    expect(await waitForStatus(t, project.id, prod.id, ['deployed', 'failed'], 60_000)).toMatchObject({ status: 'deployed' });
    const until = Date.now() + 120_000;
    for (;;) {
      const builds = await t.ctx.db.prisma.build.findMany({ where: { projectId: project.id, version: { not: null }, createdAt: { gte: started } } });
      if (builds.length >= 4 && builds.every((b) => b.status !== 'queued' && b.status !== 'building')) break;
      if (Date.now() > until) throw new Error('version builds still running');
      await new Promise((r) => setTimeout(r, 200));
    }
    internal = (await issueToken(t, project.id, 'internal', ['internal'])).token;
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    repo?.cleanup();
  });

  it("serves each version's own pages under its own URLs", async () => {
    const v1 = await site('/v1/llms-full.txt');
    expect(v1.statusCode).toBe(200);
    expect(v1.body).toContain(`# Setup\nSource: http://${HOST}/v1/guides/setup\n\nV1-SETUP install it the old way.`);
    expect(v1.body).toContain('Only in version one.');
    const current = await site('/llms-full.txt');
    expect(current.body).toContain(`Source: http://${HOST}/guides/new\n`);
    expect(current.body).not.toContain('V1-SETUP');
  });

  it("gates a version's gated page like the production site does", async () => {
    const anonymous = await site('/v2/llms-full.txt');
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.body).toContain('V2-SETUP');
    expect(anonymous.body).not.toMatch(/V2-SECRET|# Secret/);
    const insider = await site('/v2/llms-full.txt', { 'x-audience-token': internal });
    expect(insider.body).toContain(`# Secret\nSource: http://${HOST}/v2/secret\n\nV2-SECRET internal notes.`);
    expect(insider.headers['cache-control']).toBe('private, no-store');
  });

  it("points a version's pages at that version's llms files", async () => {
    const page = await site('/v1/guides/setup');
    expect(page.statusCode).toBe(200);
    expect(page.headers.link).toBe('</v1/llms.txt>; rel="llms-txt", </v1/llms-full.txt>; rel="llms-full-txt"');
    expect((await site('/guides/setup')).headers.link).toBe('</llms.txt>; rel="llms-txt", </llms-full.txt>; rel="llms-full-txt"');
  });
});
