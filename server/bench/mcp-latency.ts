/**
 * Latency of a site's MCP server (`<site>/mcp`, sites/site-mcp.ts) as an MCP client sees it: the
 * SDK's own `Client` over `StreamableHTTPClientTransport`, through HTTP, one `search` tool call at a
 * time. Sites are found by `Host` (`<slug>-docs.<sites domain>`), which a benchmark or test on
 * 127.0.0.1 cannot put in a URL, so requests go through {@link fetchWithHost}. Used by the chat
 * benchmark and the MCP tests (test/mcp/).
 */
import http from 'node:http';
import { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** A `fetch` for the MCP client's transport. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` (enough of it for the MCP client: method, headers, a string or byte body, abort) that
 * sends every request with `Host: host`, on node:http (the platform's fetch ignores a `Host` header).
 * @param agent the connection pool (default: a keep-alive pool of its own)
 * @param perRequest more headers made for each request (e.g. a new `X-Forwarded-For`)
 */
export function fetchWithHost(host: string, agent: http.Agent = new http.Agent({ keepAlive: true }), perRequest?: () => Record<string, string>): FetchLike {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input));
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      if (perRequest) Object.assign(headers, perRequest());
      headers.host = host;
      const req = http.request(url, { method: init.method ?? 'GET', headers, agent }, (res) => {
        const out = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        const status = res.statusCode ?? 500;
        const empty = status === 204 || status === 304 || init.method === 'HEAD';
        if (empty) res.resume();
        resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers: out }));
      });
      const signal = init.signal;
      if (signal) {
        if (signal.aborted) req.destroy(signal.reason as Error);
        else signal.addEventListener('abort', () => req.destroy(signal.reason as Error), { once: true });
      }
      req.on('error', reject);
      const body = init.body;
      if (body === undefined || body === null) req.end();
      else if (typeof body === 'string') req.end(body);
      else if (body instanceof Uint8Array) req.end(body);
      else if (body instanceof ArrayBuffer) req.end(Buffer.from(body));
      else reject(new Error('fetchWithHost: only string and byte bodies are sent'));
    });
}

/**
 * An MCP client connected (initialized) to the server at `url`, sending `Host: host` and `headers`
 * (e.g. `x-audience-token`) on every request. Close it with `client.close()`.
 */
export async function connectMcpClient(
  url: string,
  host: string,
  headers: Record<string, string> = {},
  agent?: http.Agent,
  perRequest?: () => Record<string, string>,
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: fetchWithHost(host, agent, perRequest), requestInit: { headers } });
  const client = new Client({ name: 'quire-mcp-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The `p`-th percentile (0-100, nearest rank) of sorted numbers. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * Calls the `search` tool of the MCP server at `url` (site `host`) with each query, `rounds` times
 * over, one call at a time on one initialized client with keep-alive connections, and returns the
 * percentiles of the calls' round trips in milliseconds (the initialize handshake is not counted).
 *
 * The server limits MCP requests per client address (sites/site-mcp.ts `MCP_RATE_LIMIT` a minute):
 * for more calls than that, pass `spreadAddresses` and start the app with
 * `QUIRE_TRUSTED_PROXIES=127.0.0.1/32`, so each request comes from another `X-Forwarded-For` address.
 * @param options `headers` sent on every request (`x-audience-token`); `spreadAddresses` as above
 * @throws Error when a call fails (a 429 included) or answers a tool error
 */
export async function measureMcpSearch(
  url: string,
  host: string,
  queries: string[],
  rounds: number,
  options: { headers?: Record<string, string>; spreadAddresses?: boolean } = {},
): Promise<{ p50: number; p95: number; p99: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let n = 0;
  const spread = options.spreadAddresses ? () => ({ 'x-forwarded-for': `10.${(++n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` }) : undefined;
  const client = await connectMcpClient(url, host, options.headers ?? {}, agent, spread);
  const times: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const query of queries) {
        const started = performance.now();
        const result = await client.callTool({ name: 'search', arguments: { query } });
        times.push(performance.now() - started);
        if (result.isError) throw new Error(`search "${query}" failed: ${JSON.stringify(result.content)}`);
      }
    }
  } finally {
    await client.close();
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) };
}
