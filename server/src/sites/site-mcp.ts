/**
 * The site's MCP server at `<site>/mcp` and its setup page `/_quire/mcp` (decisions.md section 6:
 * Streamable HTTP, read-only, no API key; the `x-audience-token` header opens gated pages as on the
 * site). The MCP server itself (tools, resources, what a reader may read) is mcp/site-mcp-server.ts;
 * this module is its HTTP side:
 *
 * - `POST /mcp`: one JSON-RPC message, answered as JSON (`enableJsonResponse`) by a server and
 *   transport made for this request alone (stateless: no `Mcp-Session-Id`, MCP specification
 *   "Transports > Streamable HTTP"); bodies over {@link MAX_MCP_BODY_BYTES} get 413, unparsable ones
 *   400, both as JSON-RPC errors;
 * - `GET`/`DELETE /mcp`: 405 with `Allow: POST, OPTIONS` (a stateless server has no stream to open
 *   and no session to end; clients then carry on with POST only); `OPTIONS`: the CORS preflight
 *   (any origin: answers never depend on cookies a cross-origin page could make a browser send
 *   readably, since `Access-Control-Allow-Origin: *` forbids credentialed reads);
 * - every request but the preflight counts against {@link MCP_RATE_LIMIT} per minute per client
 *   address and project (`ctx.rateLimits`): over it, 429 with `Retry-After` and a JSON-RPC error;
 * - `GET`/`HEAD /_quire/mcp`: the setup page in the site's look (the deployment's not-found page
 *   around shared/src/site/mcp-help.ts, as the gate page is made), standalone without one; for a
 *   `*.localhost` site it gives the path form on 127.0.0.1 (site-by-path.ts), which Node-based
 *   clients reach.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { GATE_TITLE, renderStandaloneGateDocument } from '@quire/shared/site/gate-page';
import { escapeHtml } from '@quire/shared/site/escape';
import { MCP_HELP_TITLE, renderMcpHelpArticle } from '@quire/shared/site/mcp-help';
import type { AppContext } from '../context';
import { createSiteMcpServer } from '../mcp/site-mcp-server';
import { rateLimitedError } from '../services/rate-limiter';
import { isHttps } from './cookies';
import type { DeploymentSite } from './deployment-site';
import type { GateChrome } from './gate-document';
import { hostName } from '../deployments/site-host';
import { gateChromeFor } from './page-filter';
import { sendMethodNotAllowed } from './respond';
import type { SiteAccess } from './site-access';
import { MCP_PATH } from './site-endpoints';
import { readBody } from './site-json';
import { siteReaderOf } from './site-reader';
import { localMcpUrl } from './site-by-path';
import { SECURITY_HEADERS } from './security-headers';

/** MCP requests per minute per client address and project. */
export const MCP_RATE_LIMIT = 120;
/** Largest MCP request body read, in bytes (one JSON-RPC message). */
export const MAX_MCP_BODY_BYTES = 64 * 1024;

const CORS_HEADERS: readonly string[] = [
  'Access-Control-Allow-Origin', '*',
  'Access-Control-Expose-Headers', 'Mcp-Protocol-Version, Retry-After',
];
const PREFLIGHT_HEADERS: readonly string[] = [
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods', 'POST, OPTIONS',
  'Access-Control-Allow-Headers', 'Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, X-Audience-Token',
  'Access-Control-Max-Age', '86400',
];
/** Request headers the transport reads. */
const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version'] as const;

/** The site as the client reached it: `https://acme-docs.example.com` (scheme from the socket or `X-Forwarded-Proto`). */
export function siteOriginOf(req: IncomingMessage): string {
  return `${isHttps(req) ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;
}

/**
 * The name clients list the site's server under: the first label of a `<slug>-docs.<sites domain>`
 * host (`acme-docs`), else the host name with dots as dashes (`docs-acme-com`).
 */
export function mcpServerNameOf(host: string): string {
  const name = hostName(host).replace(/^\[|\]$/g, '');
  const first = name.split('.')[0] ?? '';
  const base = first.endsWith('-docs') ? first : name;
  return base.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'docs';
}

/** Sends a JSON-RPC error without an id (transport-level refusals). */
function sendRpcError(req: IncomingMessage, res: ServerResponse, status: number, code: number, message: string, extra: readonly string[] = []): void {
  const bytes = Buffer.from(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), 'utf8');
  res.writeHead(status, ['Content-Type', 'application/json; charset=utf-8', 'Cache-Control', 'no-store', 'Content-Length', String(bytes.length), ...SECURITY_HEADERS, ...CORS_HEADERS, ...extra]);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/**
 * Answers a request of `/mcp` (rest `''`) or of the setup page (rest `/help`); see the module
 * comment. Rejects only on unexpected failures (the gate answers them 500).
 */
export async function answerSiteMcp(
  ctx: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  log: FastifyBaseLogger,
  rest: string,
): Promise<void> {
  if (rest === '/help') return answerHelp(req, res, site, access);
  if (req.method === 'OPTIONS') {
    req.resume();
    res.writeHead(204, [...PREFLIGHT_HEADERS, ...SECURITY_HEADERS]);
    res.end();
    return;
  }
  const ip = access.clientIp(req);
  const state = await ctx.rateLimits.hit(`mcp:${site.projectId}:${ip}`, MCP_RATE_LIMIT);
  if (state.exceeded) {
    req.resume();
    const err = rateLimitedError(state);
    return sendRpcError(req, res, 429, -32000, err.message, Object.entries(err.headers ?? {}).flat());
  }
  if (req.method !== 'POST') {
    req.resume();
    return sendRpcError(req, res, 405, -32000, 'This MCP server is stateless: send each JSON-RPC message with POST.', ['Allow', 'POST, OPTIONS']);
  }
  const bytes = await readBody(req, MAX_MCP_BODY_BYTES);
  if (bytes === 'aborted') return void res.destroy();
  if (bytes === 'too_large') return sendRpcError(req, res, 413, -32600, `The request body is larger than ${MAX_MCP_BODY_BYTES} bytes.`);
  let message: unknown;
  try {
    message = JSON.parse(bytes.toString('utf8'));
  } catch {
    return sendRpcError(req, res, 400, -32700, 'Parse error: the body is not valid JSON.');
  }
  const reader = await siteReaderOf(req, site, access, log);
  const origin = siteOriginOf(req);
  const host = req.headers.host ?? '';
  const server = createSiteMcpServer(ctx, { site, access, reader, origin, host, serverName: mcpServerNameOf(host), userAgent: req.headers['user-agent'] ?? '' });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  transport.onerror = (err) => log.debug({ err }, 'MCP request refused');
  try {
    await server.connect(transport);
    const headers = new Headers();
    for (const name of FORWARDED_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    const response = await transport.handleRequest(new Request(`${origin}${MCP_PATH}`, { method: 'POST', headers, body: new Uint8Array(bytes) }), { parsedBody: message });
    const body = Buffer.from(await response.arrayBuffer());
    const out: string[] = [];
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') out.push(name, value);
    });
    // answers depend on the reader's token (or cookie): never stored by a shared cache
    res.writeHead(response.status, [...out, 'Cache-Control', 'private, no-store', 'Vary', 'Cookie, X-Audience-Token', 'Content-Length', String(body.length), ...SECURITY_HEADERS, ...CORS_HEADERS]);
    res.end(body);
  } finally {
    await server.close().catch(() => {});
  }
}

/**
 * `GET`/`HEAD /_quire/mcp`: the setup page (see the module comment); 405 for other methods. Its
 * chrome names only the pages the access rules let the reader open (page-filter.ts `gateChromeFor`):
 * `private, no-store` when that made it the reader's own.
 */
async function answerHelp(req: IncomingMessage, res: ServerResponse, site: DeploymentSite, access: SiteAccess): Promise<void> {
  req.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res);
  const host = req.headers.host ?? '';
  const localUrl = localMcpUrl(req);
  const article = renderMcpHelpArticle({
    mcpUrl: `${siteOriginOf(req)}${MCP_PATH}`,
    ...(localUrl ? { localUrl } : {}),
    serverName: mcpServerNameOf(host),
    gated: site.manifest.pages.some((p) => !p.hidden && p.audience !== undefined && p.audience.length > 0),
  });
  const { chrome, personal } = await gateChromeFor(req, site, access);
  const bytes = helpDocument(chrome, article);
  const caching = personal ? ['Cache-Control', 'private, no-store', 'Vary', 'Cookie, X-Audience-Token'] : ['Cache-Control', 'no-cache'];
  res.writeHead(200, ['Content-Type', 'text/html; charset=utf-8', ...caching, 'Content-Length', String(bytes.length), ...SECURITY_HEADERS]);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/** The setup page's document: the site's chrome retitled (it carries the gate page's title), else the standalone document. */
function helpDocument(chrome: GateChrome | null, article: string): Buffer {
  if (!chrome) return Buffer.from(renderStandaloneGateDocument(article, { title: MCP_HELP_TITLE }), 'utf8');
  const title = escapeHtml(MCP_HELP_TITLE);
  const head = chrome.head.toString('utf8').replace(`<title>${GATE_TITLE}`, `<title>${title}`).replace(`<meta property="og:title" content="${GATE_TITLE}`, `<meta property="og:title" content="${title}`);
  return Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(article, 'utf8'), chrome.tail]);
}
