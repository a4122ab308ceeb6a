import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SiteConfig } from '@quire/shared/docs/types';
import { connectSrcOf, type SitePage } from '../../src/builder/site-writer';
import { DeploymentSite } from '../../src/sites/deployment-site';
import { SiteFileCache } from '../../src/sites/file-cache';
import { siteCsp } from '../../src/sites/security-headers';
import { parseCsp } from './csp';
import { siteFiles } from './site-fixture';

/**
 * The API playground sends requests from the reader's browser to the OpenAPI servers: the site's
 * pages allow exactly those origins in CSP `connect-src`, and only when the config turns the
 * playground on (docs.json `api.playground.display: interactive`).
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-playground-csp-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function deployment(name: string, connectSrc?: string[]): string {
  const dir = path.join(root, name);
  const files = siteFiles(name);
  const manifest = JSON.parse(files['manifest.json']) as Record<string, unknown>;
  if (connectSrc) manifest.connectSrc = connectSrc;
  for (const [file, content] of Object.entries({ ...files, 'manifest.json': JSON.stringify(manifest) })) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content as string | Buffer);
  }
  return dir;
}

async function cspOf(dir: string, page: string): Promise<Map<string, string[]>> {
  const site = await DeploymentSite.load(dir, new SiteFileCache({ totalBytes: 10_000_000, projectBytes: 10_000_000 }), `prj_${path.basename(dir)}`);
  const answer = await site.answer(page, false);
  if (answer.kind !== 'file') throw new Error(`${page}: ${answer.kind}`);
  const headers = answer.file.identity.headers;
  const i = headers.findIndex((h) => h.toLowerCase() === 'content-security-policy');
  site.dispose();
  return parseCsp(headers[i + 1]!);
}

const site = (raw: Record<string, unknown>) => ({ raw }) as unknown as SiteConfig;
const page = (p: string, servers?: string[]): SitePage => ({
  path: p,
  hidden: false,
  page: { title: p, frontmatter: servers ? { servers } : {}, carried: { inputKey: 'k', markdownHash: 'h' } },
});

describe('connect-src of sites with the API playground', () => {
  it('the builder lists the OpenAPI servers of the generated pages when the playground is interactive, else none', () => {
    const pages = [page('api/a', ['https://api.example.com/v1']), page('api/b', ['https://api.example.com/v2', 'http://127.0.0.1:8080']), page('guide')];
    expect(connectSrcOf({ site: site({ api: { playground: { display: 'interactive' } } }), pages })).toEqual(['http://127.0.0.1:8080', 'https://api.example.com']);
    // an MDX page embedding an operation (frontmatter `openapi:`) carries its server in the body's playground data
    const mdx = { path: 'api/c', hidden: false, page: { title: 'c', frontmatter: { openapi: 'GET /c' }, html: '<div class="q-openapi" data-q-playground="{&quot;server&quot;:&quot;https://mdx.example.com/v3&quot;}"></div>' } } as unknown as SitePage;
    expect(connectSrcOf({ site: site({ api: { playground: { display: 'interactive' } } }), pages: [mdx] })).toEqual(['https://mdx.example.com']);
    expect(connectSrcOf({ site: site({ api: { playground: { display: 'simple' } } }), pages })).toEqual([]);
    expect(connectSrcOf({ site: site({}), pages })).toEqual([]);
  });

  it("pages of a site with connectSrc allow exactly 'self' and those origins; other sites keep the default", async () => {
    const withPlayground = await cspOf(deployment('pg', ['https://api.example.com', 'http://127.0.0.1:8080']), 'guides/setup');
    expect(withPlayground.get('connect-src')).toEqual(["'self'", 'https://api.example.com', 'http://127.0.0.1:8080']);
    expect(withPlayground.get('script-src')).toEqual(["'self'"]);

    const without = await cspOf(deployment('plain'), 'guides/setup');
    expect(without.has('connect-src')).toBe(false);
    expect(without.get('default-src')).toEqual(["'self'"]);
  });

  it('never lets a manifest value widen the policy beyond plain origins', () => {
    const csp = parseCsp(siteCsp(["https://ok.example.com", "https://x.example.com; script-src *", "*", "'unsafe-inline'", 'javascript:alert(1)']));
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://ok.example.com']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
  });
});
