/**
 * The site's own endpoints under `/_quire/` (decisions.md section 6: `search`, `chat`, `feedback`,
 * `token`; plus preview links and members' passes): which one a request names, before its path is resolved as a file.
 */

/** Site endpoints answered by a handler of `SiteAccess.endpoints` (site-endpoint-handlers.ts). */
export type HandledEndpoint = 'feedback' | 'chat' | 'mcp';

/**
 * A site endpoint under `/_quire/` (besides the theme's assets), or the site's MCP server at `/mcp`.
 * `handler` endpoints take any method (the handler answers 405 itself); `rest` is the path after the
 * endpoint's prefix (`/page` of `/_quire/feedback/page`, `/sessions/<id>` of `/_quire/chat/sessions/<id>`,
 * `''` for `/mcp`).
 */
export type SiteEndpoint =
  | { kind: 'token' }
  | { kind: 'link'; token: string }
  | { kind: 'pass'; pass: string }
  | { kind: 'search' }
  | { kind: 'handler'; name: HandledEndpoint; rest: string };

/** The gate form's endpoint (`POST`). */
export const TOKEN_PATH = '/_quire/token';
/** The site's search (`GET`, site-search.ts). */
export const SEARCH_PATH = '/_quire/search';
/** Preview links: `/_quire/link/<token>` on a preview host. */
export const LINK_PREFIX = '/_quire/link/';
import { PASS_PREFIX } from '../access/preview-access';
export { PASS_PREFIX };
/** Page and section feedback: `/_quire/feedback/page`, `/_quire/feedback/section` (site-feedback.ts). */
export const FEEDBACK_PREFIX = '/_quire/feedback';
/** The assistant: `POST /_quire/chat`, `GET /_quire/chat/sessions[/<id>]` (site-chat.ts). */
export const CHAT_PREFIX = '/_quire/chat';
/** The site's MCP server (Streamable HTTP; site-mcp.ts), and its setup page for people at `/_quire/mcp`. */
export const MCP_PATH = '/mcp';
/** The "Use these docs with your AI tool" page (site-mcp.ts). */
export const MCP_HELP_PATH = '/_quire/mcp';

/** `rest` when `path` is `prefix` or under it (`prefix/...`), else undefined. */
function under(path: string, prefix: string): string | undefined {
  if (path === prefix) return '';
  return path.startsWith(prefix) && path[prefix.length] === '/' ? path.slice(prefix.length) : undefined;
}

/**
 * The site endpoint a raw request target names, if any (exact paths; query ignored). `/mcp` is the
 * MCP server for every request except a browser's page load (`GET` accepting `text/html` and not
 * `text/event-stream`), which is served as a page of the site (a docs page named `mcp`, else the 404).
 * @param accept the request's `Accept` header (for `/mcp`)
 */
export function siteEndpointOf(rawUrl: string, method?: string, accept?: string): SiteEndpoint | undefined {
  if (rawUrl.startsWith(MCP_PATH) && (rawUrl.length === MCP_PATH.length || rawUrl[MCP_PATH.length] === '?' || rawUrl[MCP_PATH.length] === '/')) {
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    if (path !== MCP_PATH && path !== `${MCP_PATH}/`) return undefined;
    const browser = method === 'GET' && accept !== undefined && accept.includes('text/html') && !accept.includes('text/event-stream');
    return browser ? undefined : { kind: 'handler', name: 'mcp', rest: '' };
  }
  if (!rawUrl.startsWith('/_quire/')) return undefined;
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  if (path === MCP_HELP_PATH) return { kind: 'handler', name: 'mcp', rest: '/help' };
  const feedback = under(path, FEEDBACK_PREFIX);
  if (feedback !== undefined) return { kind: 'handler', name: 'feedback', rest: feedback };
  const chat = under(path, CHAT_PREFIX);
  if (chat !== undefined) return { kind: 'handler', name: 'chat', rest: chat };
  if (path === TOKEN_PATH) return { kind: 'token' };
  if (path === SEARCH_PATH) return { kind: 'search' };
  if (path.startsWith(LINK_PREFIX)) {
    const token = path.slice(LINK_PREFIX.length);
    if (token && !token.includes('/')) return { kind: 'link', token };
  }
  if (path.startsWith(PASS_PREFIX)) {
    const pass = path.slice(PASS_PREFIX.length);
    if (pass && !pass.includes('/')) return { kind: 'pass', pass };
  }
  return undefined;
}
