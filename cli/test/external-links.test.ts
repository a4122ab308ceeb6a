/**
 * `check --external`: the polite fetcher against a local HTTP server (HEAD then GET, at most 4 at
 * once, requests to one host spaced out, a timeout), and what `check` reports.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExternalLinks, type LinkPlace } from '../src/external-links';
import { runCheck } from '../src/check';
import { copyFixture } from './helpers';

const requests: Array<{ method: string; url: string }> = [];
/** requests to `/page…` being answered, and the most at once */
let inFlight = 0;
let maxInFlight = 0;
const server = http.createServer((req, res) => {
  requests.push({ method: req.method!, url: req.url! });
  const page = req.url!.startsWith('/page');
  if (page) maxInFlight = Math.max(maxInFlight, ++inFlight);
  const done = (status: number) => setTimeout(() => {
    if (page) inFlight--;
    res.writeHead(status).end();
  }, 20);
  if (req.url === '/ok') return done(200);
  if (req.url === '/gone') return done(404);
  if (req.url === '/no-head') return done(req.method === 'HEAD' ? 405 : 200);
  if (req.url === '/slow') return void setTimeout(() => res.writeHead(200).end(), 4_000).unref();
  if (page) return done(200);
  done(500);
});
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** `n` links to pages of the local server, each written once in `a.mdx`. */
const pageLinks = (n: number): Map<string, LinkPlace[]> => new Map(Array.from({ length: n }, (_, i) => [`${base}/page${i}`, [{ file: 'a.mdx' }]]));
const at = (url: string) => new Map([[url, [{ file: 'index.mdx', line: 3 }]]]);

describe('external link check', () => {
  it('reports 404 as broken, retries refused HEAD with GET, and calls a timeout unreachable (a warning)', async () => {
    requests.length = 0;
    const links = new Map([...at(`${base}/ok`), ...at(`${base}/gone`), ...at(`${base}/no-head`), ...at(`${base}/slow`)]);
    const warnings = await checkExternalLinks(links, { hostDelayMs: 0, timeoutMs: 1_500 });
    expect(warnings.map((w) => [w.kind, w.message]).sort()).toEqual([
      ['broken-external-link', `${base}/gone (HTTP 404)`],
      ['external-link-unreachable', `${base}/slow (no answer within 1500 ms)`],
    ]);
    expect(requests.filter((r) => r.url === '/no-head').map((r) => r.method)).toEqual(['HEAD', 'GET']);
    expect(requests.filter((r) => r.url === '/ok').map((r) => r.method)).toEqual(['HEAD']);
  });

  it('keeps at most 4 requests in flight and spaces requests to one host', async () => {
    requests.length = 0;
    maxInFlight = 0;
    const links = pageLinks(10);
    expect(await checkExternalLinks(links, { hostDelayMs: 0, timeoutMs: 2_000 })).toEqual([]);
    expect(maxInFlight).toBeLessThanOrEqual(4);
    expect(maxInFlight).toBeGreaterThan(1);
    // when the fetcher sends each request (the server's arrival times jitter on a busy machine)
    const sent: number[] = [];
    const timed: typeof fetch = (input, init) => {
      sent.push(performance.now());
      return fetch(input, init);
    };
    await checkExternalLinks(pageLinks(4), { hostDelayMs: 100, fetch: timed });
    expect(sent).toHaveLength(4);
    for (let i = 1; i < sent.length; i++) expect(sent[i]! - sent[i - 1]!).toBeGreaterThanOrEqual(95); // timers may fire a millisecond early
  });

  it('check --external fails on a dead external link, naming its file and line', async () => {
    const dir = copyFixture('clean');
    fs.appendFileSync(path.join(dir, 'guides/setup.mdx'), `\nSee [the spec](${base}/gone) and [this](${base}/ok).\n`);
    const result = await runCheck({ dir, cwd: dir, external: { hostDelayMs: 0 } });
    expect(result.findings).toEqual([
      { file: 'guides/setup.mdx', line: 10, severity: 'error', rule: 'broken-external-link', message: `${base}/gone (HTTP 404)` },
    ]);
  });
});
