/**
 * The site's MCP server (`<site>/mcp`, decisions.md section 6) driven by the MCP SDK's own client
 * through HTTP against a listening app: the tools and their answers (absolute URLs, Markdown pages),
 * the gate (gated pages only with an `x-audience-token` that opens them, hidden pages never), the
 * pages as resources, versions, the transport's refusals (GET, oversized bodies, the rate limit),
 * agent analytics, the setup page at `/_quire/mcp`, and a browser's `GET /mcp` left to the site.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { issueToken } from '../sites/gate-fixture';
import { deploySearchProject, searchDocsRepo, WORDS } from '../routes/search-fixture';
import { connectMcpClient, fetchWithHost, measureMcpSearch } from '../../bench/mcp-latency';
import type { PageViewEvent } from '../../src/analytics/recorder';
import { MAX_MCP_BODY_BYTES, MCP_RATE_LIMIT } from '../../src/sites/site-mcp';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let host: string;
let url: string;
let origin: string;
let partnerToken: string;
let anonymous: Client;
let partner: Client;
const views: PageViewEvent[] = [];

type Hit = { title: string; url: string; path: string; section: string | null; snippet: string; version: string | null };
type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: { results: Hit[] } };

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
const text = (result: ToolResult) => result.content.map((c) => c.text).join('\n');

/** A raw request to the MCP endpoint (method, headers, body) with the site's Host. */
function raw(
  method: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...headers, host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = searchDocsRepo();
  ({ projectId, host } = await deploySearchProject(t, repo, 'search-mcp'));
  partnerToken = (await issueToken(t, projectId, 'partners', ['partners'])).token;
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (t.app.server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}/mcp`;
  origin = `http://${host}`;
  const recorder = t.ctx.analytics;
  const pageView = recorder.pageView.bind(recorder);
  recorder.pageView = (view) => (views.push(view), pageView(view));
  anonymous = await connectMcpClient(url, host);
  partner = await connectMcpClient(url, host, { 'x-audience-token': partnerToken });
}, 120_000);

afterAll(async () => {
  await anonymous?.close();
  await partner?.close();
  await t?.close();
  repo?.cleanup();
});

describe('the site MCP server', () => {
  it('introduces itself and lists the search and get_page tools with their parameters', async () => {
    expect(anonymous.getServerVersion()?.name).toBe('search-mcp-docs');
    const { tools } = await anonymous.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual(['get_page', 'search']);
    expect(Object.keys(byName.search!.inputSchema.properties ?? {}).sort()).toEqual(['limit', 'query', 'version']);
    expect(byName.search!.inputSchema.required).toEqual(['query']);
    expect(byName.get_page!.inputSchema.required).toEqual(['path']);
    expect(byName.search!.annotations?.readOnlyHint).toBe(true);
    expect(byName.get_page!.description).toMatch(/Markdown/);
  });

  it('searches with absolute URLs, sections and plain-text snippets', async () => {
    const result = await call(anonymous, 'search', { query: WORDS.install });
    expect(result.isError, text(result)).toBeFalsy();
    const [hit] = result.structuredContent!.results;
    expect(hit).toMatchObject({ title: 'Setup', path: 'setup', section: 'Install the CLI', url: `${origin}/setup#install-the-cli`, version: 'v2' });
    expect(hit!.snippet).toContain(WORDS.install);
    expect(hit!.snippet).not.toContain('<mark>');
    expect(text(result)).toContain(`${origin}/setup#install-the-cli`);
  });

  it('searches the version asked for and says when a version does not exist', async () => {
    const [hit] = (await call(anonymous, 'search', { query: WORDS.legacy, version: 'old' })).structuredContent!.results;
    expect(hit).toMatchObject({ path: 'setup', version: 'old', url: `${origin}/old/setup#install-the-cli` });
    expect((await call(anonymous, 'search', { query: WORDS.legacy })).structuredContent!.results).toEqual([]);
    const unknown = await call(anonymous, 'search', { query: 'setup', version: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/nope/);
  });

  it('refuses a query outside the schema or holding NUL with a tool error', async () => {
    const empty = await call(anonymous, 'search', { query: '' });
    expect(empty.isError).toBe(true);
    const nul = await call(anonymous, 'search', { query: 'a\u0000b' });
    expect(nul.isError).toBe(true);
    expect(text(nul)).toMatch(/query/);
  });

  it('returns a page as Markdown by path, by .md path and by the URL search gave', async () => {
    for (const path of ['setup', '/setup', '/setup.md', `${origin}/setup#install-the-cli`, `http://${host.toUpperCase()}/setup?x=1`]) {
      const result = await call(anonymous, 'get_page', { path });
      expect(result.isError, path).toBeFalsy();
      expect(text(result)).toContain(WORDS.install);
    }
  });

  it('reads a version page by its prefixed path or the version parameter', async () => {
    expect(text(await call(anonymous, 'get_page', { path: '/old/setup' }))).toContain(WORDS.legacy);
    expect(text(await call(anonymous, 'get_page', { path: 'setup', version: 'old' }))).toContain(WORDS.legacy);
  });

  it('refuses URLs of other sites and unknown pages with a clear tool error', async () => {
    const other = await call(anonymous, 'get_page', { path: 'https://example.com/setup' });
    expect(other.isError).toBe(true);
    expect(text(other)).toContain('example.com is another site');
    const missing = await call(anonymous, 'get_page', { path: 'no/such/page' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain('No page "no/such/page"');
  });

  it('follows the site\'s redirects from an old path to the page it now answers with, and gives up on loops and other sites', async () => {
    const moved = await call(anonymous, 'get_page', { path: '/getting-started' });
    expect(moved.isError).toBeFalsy();
    expect(text(moved)).toContain(WORDS.install);
    expect(text(await call(anonymous, 'get_page', { path: `${origin}/moved/intro` }))).toContain('An introduction.');
    for (const path of ['loop-a', 'elsewhere']) {
      const result = await call(anonymous, 'get_page', { path });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain(`No page "${path}"`);
    }
  });

  it('opens a gated page only with an x-audience-token that opens it', async () => {
    const refused = await call(anonymous, 'get_page', { path: 'partners' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).not.toContain(WORDS.partner);
    expect(text(refused)).not.toContain('Partner Portal');
    expect((await call(anonymous, 'search', { query: WORDS.partner })).structuredContent!.results).toEqual([]);

    expect(text(await call(partner, 'get_page', { path: 'partners' }))).toContain(WORDS.partner);
    expect((await call(partner, 'search', { query: WORDS.partner })).structuredContent!.results[0]).toMatchObject({ path: 'partners', url: `${origin}/partners` });
    const internal = await call(partner, 'get_page', { path: '/internal.md' });
    expect(internal.isError).toBe(true);
    expect(text(internal)).not.toContain(WORDS.internal);

    const forged = await connectMcpClient(url, host, { 'x-audience-token': 'forged.token' });
    try {
      expect((await call(forged, 'get_page', { path: 'partners' })).isError).toBe(true);
    } finally {
      await forged.close();
    }
  });

  it('never answers or lists a hidden page', async () => {
    expect((await call(partner, 'get_page', { path: 'hidden' })).isError).toBe(true);
    expect((await call(partner, 'search', { query: WORDS.hidden })).structuredContent!.results).toEqual([]);
  });

  it('lists the readable pages as resources with titles and reads them as Markdown', async () => {
    const listed = (await anonymous.listResources()).resources;
    const uris = listed.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining([`${origin}/index`, `${origin}/setup`, `${origin}/guides/intro`]));
    expect(uris).not.toContain(`${origin}/partners`);
    expect(uris).not.toContain(`${origin}/internal`);
    expect(uris.some((u) => u.endsWith('/hidden'))).toBe(false);
    expect(listed.find((r) => r.uri === `${origin}/setup`)).toMatchObject({ name: 'setup', title: 'Setup', mimeType: 'text/markdown' });

    const read = await anonymous.readResource({ uri: `${origin}/setup` });
    expect(read.contents[0]).toMatchObject({ uri: `${origin}/setup`, mimeType: 'text/markdown' });
    expect((read.contents[0] as { text: string }).text).toContain(WORDS.install);
    await expect(anonymous.readResource({ uri: `${origin}/partners` })).rejects.toThrow(/not found/i);

    const partnerUris = (await partner.listResources()).resources.map((r) => r.uri);
    expect(partnerUris).toContain(`${origin}/partners`);
    expect(partnerUris).not.toContain(`${origin}/internal`);
    expect(partnerUris.some((u) => u.endsWith('/hidden'))).toBe(false);
    expect(((await partner.readResource({ uri: `${origin}/partners` })).contents[0] as { text: string }).text).toContain(WORDS.partner);
  });

  it('counts every tool call and resource read as agent traffic', async () => {
    const before = views.length;
    await call(anonymous, 'get_page', { path: 'setup' });
    await anonymous.readResource({ uri: `${origin}/setup` });
    const added = views.slice(before);
    expect(added).toHaveLength(2);
    for (const view of added) expect(view).toMatchObject({ projectId, path: 'mcp', reader: 'agent', agent: 'mcp', visitor: { ip: '127.0.0.1' } });
  });

  it('answers GET and DELETE 405 with Allow: POST (no sessions, no stream) and oversized bodies 413', async () => {
    const get = await raw('GET', { accept: 'text/event-stream' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toContain('POST');
    expect((await raw('DELETE', {})).status).toBe(405);
    const big = await raw('POST', RPC_HEADERS, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(MAX_MCP_BODY_BYTES) } }));
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).error.code).toBe(-32600);
    const broken = await raw('POST', RPC_HEADERS, '{not json');
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body).error.code).toBe(-32700);
  });

  it('refuses requests that are not MCP over Streamable HTTP with a 4xx JSON-RPC error, never a 500', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect((await raw('POST', { 'content-type': 'application/json' }, ping)).status).toBe(406);
    expect((await raw('POST', { ...RPC_HEADERS, 'content-type': 'text/plain' }, ping)).status).toBe(415);
    const notRpc = await raw('POST', RPC_HEADERS, JSON.stringify({ hello: 'world' }));
    expect(notRpc.status).toBe(400);
    expect(JSON.parse(notRpc.body).jsonrpc).toBe('2.0');
    const unknownTool = (await raw('POST', RPC_HEADERS, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'delete_everything', arguments: {} } })));
    expect(unknownTool.status).toBeLessThan(500);
  });

  it('measures search latency through the SDK client (bench helper)', async () => {
    const figures = await measureMcpSearch(url, host, [WORDS.install, 'setup'], 2);
    expect(figures.p50).toBeGreaterThan(0);
    expect(figures.p50).toBeLessThanOrEqual(figures.p95);
    expect(figures.p95).toBeLessThanOrEqual(figures.p99);
  });

  it('answers stateless JSON without a session id, never cached', async () => {
    const res = await raw('POST', RPC_HEADERS, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(JSON.parse(res.body).result.tools).toHaveLength(2);
  });

  it('leaves a browser GET /mcp to the site (its 404 page), not the MCP server', async () => {
    const res = await t.app.inject({ url: '/mcp', headers: { host, accept: 'text/html,application/xhtml+xml' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).not.toContain('jsonrpc');
  });

  it('serves the setup page with the exact MCP URL and named copy buttons', async () => {
    const res = await t.app.inject({ url: '/_quire/mcp', headers: { host } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    expect(html).toContain(`http://${host}/mcp`);
    expect(html).toContain('<title>Use these docs with your AI tool');
    expect(html).toContain('q-sidebar'); // the site's own chrome
    for (const client of ['Claude Code', 'Claude Desktop', 'Cursor', 'VS Code', 'ChatGPT']) expect(html).toContain(`aria-label="Copy ${client} setup"`);
    expect(html).toContain('aria-label="Copy MCP server URL"');
    // a *.localhost site: every snippet uses the address Node-based clients reach, and the page says why
    const [siteName, sitePort] = host.split(':');
    const local = `http://127.0.0.1:${sitePort}/sites/${siteName}/mcp`;
    expect(siteName!.endsWith('.localhost')).toBe(true);
    expect(html).toContain(`claude mcp add --transport http search-mcp-docs ${local}`);
    expect(html).toContain(`&quot;url&quot;: &quot;${local}&quot;`);
    expect(html).toMatch(/MCP clients built on Node\.js[^<]*may not/);
    expect(html).toContain(`<code>http://${host}/mcp</code>`);
    expect(html).toContain('x-audience-token'); // the site has restricted pages
    expect(html).not.toContain('Partner Portal');
    expect((await t.app.inject({ method: 'POST', url: '/_quire/mcp', headers: { host } })).statusCode).toBe(405);
  });

  it("answers as the site's MCP server at /sites/<site host>/mcp on the server's own address, for clients that cannot resolve *.localhost", async () => {
    const port = new URL(url).port;
    // the setup page of a listening server gives the exact loopback address and port
    const page = await fetchWithHost(host)(`http://127.0.0.1:${port}/_quire/mcp`);
    const siteName = host.split(':')[0]!;
    const byPath = `http://127.0.0.1:${port}/sites/${siteName}/mcp`;
    expect(await page.text()).toContain(`claude mcp add --transport http search-mcp-docs ${byPath}`);
    // the MCP SDK's client with Node's own fetch and name resolution, as Claude Code connects
    const client = new Client({ name: 'node-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(byPath)));
    try {
      expect(client.getServerVersion()?.name).toBe('search-mcp-docs');
      const [hit] = (await call(client, 'search', { query: WORDS.install })).structuredContent!.results;
      expect(hit).toMatchObject({ title: 'Setup', path: 'setup' });
    } finally {
      await client.close();
    }
    // only a site host of the sites domain, and only the MCP endpoint, has a path form
    for (const path of [`/sites/example.com/mcp`, `/sites/${siteName}/setup`, `/sites/${siteName}/_quire/mcp`]) {
      expect((await t.app.inject({ method: 'POST', url: path, headers: { host: `127.0.0.1:${port}`, ...RPC_HEADERS }, payload: '{}' })).statusCode, path).toBe(404);
    }
  });

  it('limits requests per client address with 429 and Retry-After', async () => {
    const fetcher = fetchWithHost(host);
    let limited: Response | undefined;
    for (let i = 0; i < MCP_RATE_LIMIT * 2 + 2 && !limited; i++) {
      const res = await fetcher(url, { method: 'POST', headers: RPC_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' }) });
      if (res.status === 429) limited = res;
      else await res.arrayBuffer();
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited!.json()) as { error: { message: string } }).error.message).toMatch(/Rate limit/);
  });
});
