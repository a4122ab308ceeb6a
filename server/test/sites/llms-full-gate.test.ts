import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { buildAndDeploy, createGatedProject, gatedDocsRepo, issueToken, SECRETS } from './gate-fixture';

/**
 * `/llms-full.txt` through the site gate (decisions.md section 6), on a real build of a repository
 * with gated pages: every visitor gets the readable pages' Markdown, and a gated page's only when
 * their token opens it; and the headers that point agents at the llms files from every HTML page.
 */

let t: TestApp;
let repo: FixtureRepo;
let partners: string;
let staff: string;
let otherProjectToken: string;
const HOST = 'llmsfull-docs.localhost:4000';

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } });

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = gatedDocsRepo();
  const projectId = await createGatedProject(t, repo, 'llmsfull');
  await buildAndDeploy(t, projectId);
  partners = (await issueToken(t, projectId, 'partners', ['partners'])).token;
  staff = (await issueToken(t, projectId, 'staff', ['staff'])).token;
  const other = await createGatedProject(t, repo, 'llmsfull-other');
  otherProjectToken = (await issueToken(t, other, 'partners', ['partners'])).token;
}, 120_000);
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('llms-full.txt', () => {
  it('gives a visitor without a token every public page in navigation order and nothing of a gated one', async () => {
    const res = await get('/llms-full.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    for (const secret of SECRETS) expect(res.body, `must not show "${secret}"`).not.toContain(secret);
    expect(res.body).not.toContain('data-audience');
    const order = ['PUBLIC-HOME', 'PUBLIC-SETUP', 'PUBLIC-INTRO'].map((m) => res.body.indexOf(m));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(res.body).toContain('# Setup\nSource: http://llmsfull-docs.localhost:4000/setup\n');
    // other visitors may get more: shared caches must tell them apart
    expect(res.headers.vary).toContain('Cookie');
  });

  it('adds the gated pages the token opens, and only those, for the token sent in the header', async () => {
    const res = await get('/llms-full.txt', { 'x-audience-token': partners });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('# Partner Portal\nSource: http://llmsfull-docs.localhost:4000/partners\n');
    expect(res.body).toContain('PARTNER-BODY');
    expect(res.body).toContain('VAULT-BODY');
    expect(res.body).not.toMatch(/Internal Runbook|INTERNAL-BODY/);
    expect(res.body).not.toContain('data-audience');
    expect(res.body.indexOf('PUBLIC-HOME')).toBeLessThan(res.body.indexOf('PARTNER-BODY'));
    expect(res.body.indexOf('PARTNER-BODY')).toBeLessThan(res.body.indexOf('PUBLIC-SETUP'));
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('does the same for the token in the cookie the magic link sets', async () => {
    const res = await get('/llms-full.txt', { cookie: `quire_audience=${staff}` });
    expect(res.body).toContain('INTERNAL-BODY');
    expect(res.body).not.toMatch(/PARTNER-BODY|VAULT-BODY/);
  });

  it("opens nothing for another project's token", async () => {
    const res = await get('/llms-full.txt', { 'x-audience-token': otherProjectToken });
    expect(res.statusCode).toBe(200);
    for (const secret of SECRETS) expect(res.body).not.toContain(secret);
    expect(res.body).toContain('PUBLIC-HOME');
  });

  it("gives a visitor's compressed form the same cut", async () => {
    const res = await get('/llms-full.txt', { 'x-audience-token': partners, 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    const text = gunzipSync(res.rawPayload).toString('utf8');
    expect(text).toContain('PARTNER-BODY');
    expect(text).not.toMatch(/INTERNAL-BODY|data-audience/);
  });
});

describe('pointers for agents', () => {
  it('sends the Link header naming llms.txt and llms-full.txt on HTML pages', async () => {
    for (const url of ['/', '/setup', '/guides/intro']) {
      const res = await get(url);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers.link).toBe('</llms.txt>; rel="llms-txt", </llms-full.txt>; rel="llms-full-txt"');
      expect(res.headers['x-llms-txt']).toBe('/llms.txt');
    }
    // a gated page's HTML carries it too, for the visitors who may open it
    const gated = await get('/partners', { 'x-audience-token': partners });
    expect(gated.statusCode).toBe(200);
    expect(gated.headers.link).toContain('rel="llms-full-txt"');
  });

  it("serves pages' Markdown as text/markdown, without the Link header", async () => {
    const res = await get('/setup.md');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers.link).toBeUndefined();
    expect(res.body).toContain('PUBLIC-SETUP');
  });
});
