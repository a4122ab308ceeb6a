/**
 * A site's MCP server by path on the server's own address: `http://127.0.0.1:4000/sites/<site
 * host>/mcp` answers as `http://<site host>:4000/mcp` does (site-mcp.ts). Sites are told apart by
 * their Host (site-resolver.ts), and Chromium and curl resolve the default `*.localhost` site hosts
 * (interface-spec.md `QUIRE_SITES_DOMAIN`) to this computer, but Node.js resolves names through the
 * system, which often does not: MCP clients built on Node (Claude Code, mcp-remote, editors'
 * extension hosts) could not reach a local site's MCP server. Only the MCP endpoint has a path
 * form: a site's pages keep their own origin (their cookies and scripts stay theirs).
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { isHttps } from './cookies';
import { hostName, parseSiteHost } from '../deployments/site-host';
import { MCP_PATH } from './site-endpoints';

/** The prefix of the path form: `/sites/<site host>/mcp`. */
export const SITES_BY_PATH_PREFIX = '/sites/';

/** `/sites/<host name>/mcp`, an optional trailing slash and query. */
const MCP_BY_PATH = /^\/sites\/([^/?#]+)\/mcp\/?(\?.*)?$/;

/**
 * Turns a request of the path form into the request it stands for: when `req.url` is
 * `/sites/<host>/mcp[?query]` and `<host>` is a site host of `sitesDomain`, sets its Host to that
 * site host (keeping the port it came to) and its URL to `/mcp[?query]`. Call it only for requests
 * whose own Host is not a site's (the API's), so a site's page at such a path stays the site's.
 * @returns true when it rewrote the request
 */
export function rewriteSiteByPath(req: IncomingMessage, sitesDomain: string): boolean {
  const match = MCP_BY_PATH.exec(req.url ?? '');
  if (!match) return false;
  let name: string;
  try {
    name = hostName(decodeURIComponent(match[1]!));
  } catch {
    return false;
  }
  if (!parseSiteHost(name, sitesDomain)) return false;
  const port = portOf(req.headers.host);
  req.headers.host = port ? `${name}:${port}` : name;
  req.url = `${MCP_PATH}${match[2] ?? ''}`;
  return true;
}

/** The port of a Host header value (`acme-docs.localhost:4000` → `4000`), '' without one. */
function portOf(host: string | undefined): string {
  const m = /:(\d+)$/.exec(host ?? '');
  return m && !host!.endsWith(']') ? m[1]! : '';
}

/** True for a loopback address (`127.0.0.0/8`, `::1`, and IPv4 loopback mapped into IPv6). */
function isLoopback(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return (isIP(v4) === 4 && v4.startsWith('127.')) || address === '::1';
}

/**
 * The address of a site's MCP server that Node-based clients reach, for a site whose host ends
 * in `.localhost` (undefined for any other): the path form on the loopback address and port this
 * request came to (`http://127.0.0.1:4000/sites/acme-docs.localhost/mcp`); 127.0.0.1 and the Host's
 * port when the connection's own address is not a loopback one.
 */
export function localMcpUrl(req: IncomingMessage): string | undefined {
  const name = hostName(req.headers.host ?? '');
  if (!name.endsWith('.localhost')) return undefined;
  const local = req.socket?.localAddress;
  const address = local && isLoopback(local) ? (local.startsWith('::ffff:') ? local.slice(7) : local) : '127.0.0.1';
  const port = req.socket?.localPort ?? (Number(portOf(req.headers.host)) || undefined);
  const scheme = isHttps(req) ? 'https' : 'http';
  const hostPart = isIP(address) === 6 ? `[${address}]` : address;
  const defaultPort = scheme === 'https' ? 443 : 80;
  return `${scheme}://${hostPart}${port && port !== defaultPort ? `:${port}` : ''}${SITES_BY_PATH_PREFIX}${name}${MCP_PATH}`;
}
