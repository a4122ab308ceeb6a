import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../server/src/builder/pipeline';
import { closeRenderPool } from '../../server/src/builder/render-pool';
import { createFixtureRepo, type FixtureRepo } from '../../server/test/helpers/git-repo';
import { startDevServer, type DevServer } from '../src/dev/dev-server';
import { withoutReloadScript } from '../src/dev/live-reload';
import { cli, copyFixture, FIXTURES } from './helpers';

/**
 * `quire-docs dev` serves what a build publishes: the same fixture goes through the server's real
 * build (runBuild: git checkout, render workers, site writer) and through `dev`, and a page's article
 * markup is identical. Then the dev server's live reload: an edit reaches the open page as a
 * Server-Sent Event and the page shows the new text.
 */
let dir: string;
let dev: DevServer;
let repo: FixtureRepo;
let dataDir: string;
const printed: string[] = [];

beforeAll(async () => {
  dir = copyFixture('dev');
  dev = await startDevServer({ dir, cwd: dir, port: 0, out: (t) => printed.push(t), err: (t) => printed.push(t), debounceMs: 50 });
  repo = createFixtureRepo(path.join(FIXTURES, 'dev'));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-docs-build-'));
});

afterAll(async () => {
  await dev?.close();
  await closeRenderPool();
  repo?.cleanup();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The `<article>` of a page document. */
function article(html: string): string {
  const m = /<article class="q-article">[\s\S]*<\/article>/.exec(html);
  expect(m, 'the document holds an article').not.toBeNull();
  return m![0];
}

async function get(urlPath: string): Promise<{ status: number; type: string; body: string; location: string | null }> {
  const res = await fetch(new URL(urlPath, dev.url), { redirect: 'manual' });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text(), location: res.headers.get('location') };
}

/** Reads an event stream until `until` matches what came, or fails after `ms`. */
async function readEvents(res: Response, until: RegExp, ms = 20_000): Promise<string> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = '';
  const deadline = Date.now() + ms;
  while (!until.test(seen)) {
    const next = await Promise.race([reader.read(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no event matching ${until} in ${ms} ms; got ${seen}`)), deadline - Date.now()))]);
    if (next.done) break;
    seen += next.value;
  }
  await reader.cancel();
  return seen;
}

describe('quire-docs dev', () => {
  it('serves a page whose article markup is the one a real build writes', async () => {
    const built = await runBuild({
      projectId: 'prj_devparity',
      buildId: 'bld_devparity',
      repoUrl: repo.url,
      branch: repo.branch,
      allowFileRepos: true,
      dataDir,
      siteUrl: 'http://dev-docs.localhost:4000',
      signal: new AbortController().signal,
      log: () => undefined,
    });
    for (const page of ['guides/setup', 'guides/math', 'index']) {
      const fromBuild = fs.readFileSync(path.join(built.outDir, `${page}.html`), 'utf8');
      const fromDev = await get(page === 'index' ? '/' : `/${page}`);
      expect(fromDev.status).toBe(200);
      expect(fromDev.type).toBe('text/html; charset=utf-8');
      expect(article(fromDev.body)).toBe(article(fromBuild));
      // the whole document too: only the live reload script is added
      expect(withoutReloadScript(fromDev.body)).toBe(fromBuild);
    }
    const setup = article((await get('/guides/setup')).body);
    expect(setup).toContain('The installer needs network access.');
    expect(setup).toContain('Keep the version pinned.');
    // the theme assets the build hashed are served under the same URLs
    const css = /href="(\/_quire\/assets\/site\.[0-9a-f]+\.css)"/.exec(fs.readFileSync(path.join(built.outDir, 'index.html'), 'utf8'))![1]!;
    const asset = await get(css);
    expect(asset.status).toBe(200);
    expect(asset.body).toBe(fs.readFileSync(path.join(built.outDir, css.slice(1)), 'utf8'));
  }, 240_000);

  it('answers images, redirects, Markdown and unknown paths as site hosting does', async () => {
    const logo = await get('/images/logo.svg');
    expect(logo.status).toBe(200);
    expect(logo.type).toBe('image/svg+xml');
    const moved = await get('/old-setup');
    expect(moved.status).toBe(308);
    expect(moved.location).toBe('/guides/setup');
    const md = await get('/guides/setup.md');
    expect(md.type).toBe('text/markdown; charset=utf-8');
    expect(md.body).toContain('# Setup');
    const missing = await get('/no/such/page');
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('/_quire/dev/reload.js');
    expect((await get('/snippets/note.mdx')).status).toBe(404);
  });

  it('renders an edited page again and tells the open page to reload', async () => {
    const events = await fetch(new URL('/_quire/dev/events', dev.url));
    expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const file = path.join(dir, 'guides/setup.mdx');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Run the installer', 'Run the new installer'));
    const seen = await readEvents(events, /event: reload\ndata: .*\n\n/);
    expect(seen).toContain('event: reload\ndata: {"kind":"pages","pages":["guides/setup"]}');
    expect((await get('/guides/setup')).body).toContain('Run the new installer');
  });

  it('renders the pages importing an edited snippet again', async () => {
    const events = await fetch(new URL('/_quire/dev/events', dev.url));
    fs.writeFileSync(path.join(dir, 'snippets/note.mdx'), 'The installer works offline too.\n');
    const seen = await readEvents(events, /event: reload\ndata: .*\n\n/);
    expect(seen).toContain('"pages":["guides/setup"]');
    expect((await get('/guides/setup')).body).toContain('The installer works offline too.');
  });

  it('shows a page that cannot be parsed as its error, then the page once fixed', async () => {
    const file = path.join(dir, 'guides/math.mdx');
    const good = fs.readFileSync(file, 'utf8');
    let events = await fetch(new URL('/_quire/dev/events', dev.url));
    fs.writeFileSync(file, `${good}\n<Tip>never closed\n`);
    await readEvents(events, /event: reload/);
    const broken = await get('/guides/math');
    expect(broken.status).toBe(500);
    expect(broken.body).toMatch(/guides\/math\.mdx:\d+: /);
    expect(printed.join('')).toMatch(/error: guides\/math\.mdx:\d+: /);
    events = await fetch(new URL('/_quire/dev/events', dev.url));
    fs.writeFileSync(file, good.replace('The area', 'The disc area'));
    await readEvents(events, /event: reload/);
    const fixed = await get('/guides/math');
    expect(fixed.status).toBe(200);
    expect(fixed.body).toContain('The disc area');
  });

  it('loads the project again when docs.json changes', async () => {
    const events = await fetch(new URL('/_quire/dev/events', dev.url));
    const config = path.join(dir, 'docs.json');
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('"Dev docs"', '"Renamed docs"'));
    const seen = await readEvents(events, /event: reload\ndata: .*\n\n/);
    expect(seen).toContain('{"kind":"full"}');
    expect((await get('/')).body).toContain('Renamed docs');
  });

  it('answers only requests addressed to this computer (a page on another name cannot read it by DNS rebinding)', async () => {
    const port = Number(new URL(dev.url).port);
    const withHost = (host: string) =>
      new Promise<number>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject);
      });
    expect(await withHost(`attacker.example:${port}`)).toBe(403);
    expect(await withHost('not a host')).toBe(400);
    expect(await withHost(`localhost:${port}`)).toBe(200);
    expect(await withHost(`[::1]:${port}`)).toBe(200);
  });

  it('refuses a port that is taken, with exit status 2', async () => {
    const port = Number(new URL(dev.url).port);
    const r = await cli(['dev', dir, '--port', String(port)]);
    expect(r.status).toBe(2);
    expect(r.err).toContain(`port ${port} on 127.0.0.1 is taken`);
    const bad = await cli(['dev', dir, '--port', 'http']);
    expect(bad.status).toBe(2);
    expect(bad.err).toContain('--port takes a port number');
  });

  it('stops cleanly when told to, freeing its port', async () => {
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    let out = '';
    const running = (async () => {
      const { runCli } = await import('../src/commands');
      return runCli(['dev', dir, '--port', '0'], { out: (t) => (out += t), err: () => undefined, cwd: dir, stopped: () => stopped });
    })();
    await expect.poll(() => /Serving (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1], { timeout: 60_000 }).toBeDefined();
    const url = /Serving (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)![1]!;
    expect((await fetch(url)).status).toBe(200);
    stop();
    expect(await running).toBe(0);
    expect(out).toContain('stopped');
    const port = Number(new URL(url).port);
    const free = await new Promise<boolean>((resolve) => {
      const s = net.createServer().once('error', () => resolve(false)).listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    expect(free).toBe(true);
  }, 90_000);
});
