/**
 * The MCP server of one documentation site (decisions.md section 6: `<site>/mcp`, read-only, no API
 * key): tools `search` (`query`, optional `version` and `limit`) and `get_page` (`path`, optional
 * `version`), and the site's readable pages as resources. One server per HTTP request (the endpoint
 * is stateless: sites/site-mcp.ts), made for that request's reader, so every answer is cut to what
 * the reader may read (mcp/docs-source.ts: hidden pages never, gated pages only for a token that
 * opens them, the site's access rules for every page).
 *
 * Resource URIs are the pages' own URLs on the site as the client reached it
 * (`https://acme-docs.example.com/guides/setup`, `text/markdown`), the same URLs search results
 * carry, so an agent can cite them. Every tool call and resource read counts as one agent view
 * (`ctx.analytics.pageView`, path `mcp`, agent `mcp`).
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ApiError } from '@quire/shared/errors';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, MAX_SEARCH_QUERY } from '@quire/shared/api/search';
import { decodeEntities } from '@quire/shared/docs/markdown/html';
import { findUnstorableText } from '@quire/shared/text';
import type { AppContext } from '../context';
import { hitUrl } from '../search/search-service';
import type { DeploymentSite } from '../sites/deployment-site';
import type { SiteAccess } from '../sites/site-access';
import type { SiteReader } from '../sites/site-reader';
import { findPageFollowingRedirects, mayRead, readablePages, servedSource, versionSource, type DocsSource } from './docs-source';
import { MAX_PAGE_REFERENCE, pageReferenceOf } from './page-reference';

/** MCP error code of a resource that does not exist (MCP specification, "Resources > Error Handling"). */
export const RESOURCE_NOT_FOUND = -32002;

/** What one MCP request is about. */
export interface SiteMcpRequest {
  site: DeploymentSite;
  access: SiteAccess;
  reader: SiteReader;
  /** the site as the client reached it, without a trailing slash (`https://acme-docs.example.com`) */
  origin: string;
  /** the request's `Host` header */
  host: string;
  /** the server's name in `initialize` (`acme-docs`) */
  serverName: string;
  /** the request's `User-Agent` ('' when absent), for unique-visitor counts */
  userAgent: string;
}

/** One search hit as the `search` tool returns it (absolute URL, plain-text snippet). */
export interface McpSearchHit {
  title: string;
  url: string;
  /** page path, for `get_page` */
  path: string;
  section: string | null;
  snippet: string;
  version: string | null;
}

const VERSION = z.string().min(1).max(100).optional().describe('Documentation version label (as in the site\'s version switcher); absent: the default version');

const SEARCH_INPUT = {
  query: z.string().trim().min(1).max(MAX_SEARCH_QUERY).describe(`What to look for: words or a question, 1-${MAX_SEARCH_QUERY} characters`),
  version: VERSION,
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe(`Most results wanted, 1-${MAX_SEARCH_LIMIT} (default ${DEFAULT_SEARCH_LIMIT})`),
};

const SEARCH_OUTPUT = {
  results: z.array(
    z.object({
      title: z.string().describe("The page's title"),
      url: z.string().describe('Absolute URL of the page section'),
      path: z.string().describe('Page path, for get_page'),
      section: z.string().nullable().describe('Heading of the section found; null for the top of the page'),
      snippet: z.string().describe('Plain-text excerpt around the matched words'),
      version: z.string().nullable().describe('Documentation version; null when the site has none'),
    }),
  ),
};

const GET_PAGE_INPUT = {
  path: z.string().trim().min(1).max(MAX_PAGE_REFERENCE).describe('The page: a path such as "guides/setup" or "/guides/setup.md", or a full URL of this site (as search results give)'),
  version: VERSION,
};

/** A search snippet as plain text: `<mark>` dropped, entities decoded. */
export function plainSnippet(snippet: string): string {
  return decodeEntities(snippet.replace(/<\/?mark>/g, ''));
}

/** A tool error result (the model sees the message; MCP specification "Tools > Error Handling"). */
function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** The message of a refused page (the same whether it does not exist or the reader may not read it, so nothing is given away). */
function noPage(path: string): string {
  return `No page "${path}" that you can read. Use search to find pages; restricted pages need an access token sent in the x-audience-token header.`;
}

/**
 * Makes the MCP server of one request (see the module comment).
 * @returns a server not yet connected to a transport
 */
export function createSiteMcpServer(ctx: AppContext, request: SiteMcpRequest): McpServer {
  const { site, reader, origin } = request;
  const server = new McpServer(
    { name: request.serverName, version: '1.0.0', title: `${request.host} documentation` },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: `Documentation published at ${origin}/. Use "search" to find the pages about a topic, then "get_page" to read a page as Markdown. Cite the page URLs.`,
    },
  );
  const count = () => ctx.analytics.pageView({ projectId: site.projectId, path: 'mcp', reader: 'agent', agent: 'mcp', visitor: { ip: reader.ip, userAgent: request.userAgent } });
  const pageUrl = (source: DocsSource, path: string) => hitUrl(origin, source.basePath, { path });

  /** The Markdown of a page reference, or the message why not. */
  async function readPage(
    reference: string,
    version: string | undefined,
  ): Promise<{ ok: true; markdown: string; url: string } | { ok: false; message: string }> {
    const bad = findUnstorableText(reference);
    if (bad) return { ok: false, message: `path: ${bad.issue}` };
    const named = pageReferenceOf(reference, request.host, site.manifest.versions);
    if (!named.ok) return named;
    if (named.version !== undefined && version !== undefined && named.version !== version) return { ok: false, message: `The path names version "${named.version}" but version "${version}" was asked for.` };
    const source = await versionSource(ctx, site, named.version ?? version);
    const page = findPageFollowingRedirects(source.manifest, named.path);
    if (!page || !(await mayRead(reader, page))) return { ok: false, message: noPage(reference) };
    const markdown = await source.readMarkdown(page.path);
    if (markdown === null) return { ok: false, message: noPage(reference) };
    return { ok: true, markdown, url: pageUrl(source, page.path) };
  }

  server.registerTool(
    'search',
    {
      title: 'Search the documentation',
      description:
        'Full-text search of this documentation site. Returns the best matching page sections with title, absolute URL, section heading and a snippet. ' +
        'Use get_page with a result\'s path or URL to read the whole page.',
      inputSchema: SEARCH_INPUT,
      outputSchema: SEARCH_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
    },
    async ({ query, version, limit }) => {
      count();
      const bad = findUnstorableText(query) ?? (version !== undefined ? findUnstorableText(version) : null);
      if (bad) return toolError(`query: ${bad.issue}`);
      try {
        // `source` counts the search as the MCP server's (analytics) once SiteSearchQuery carries it through
        const asked = { q: query, ...(version !== undefined ? { version } : {}), limit: limit ?? DEFAULT_SEARCH_LIMIT, canRead: reader.canRead, readerKey: reader.readerKey, allow: reader.allow, source: 'mcp' as const };
        const hits = await request.access.search(site, asked);
        const results: McpSearchHit[] = hits.map((h) => ({ title: h.title, url: new URL(h.url, `${origin}/`).toString(), path: h.path, section: h.section, snippet: plainSnippet(h.snippet), version: h.version }));
        const text = results.length === 0 ? `No results for "${query}".` : results.map((r, i) => `${i + 1}. ${r.title}${r.section ? ` > ${r.section}` : ''}\n   ${r.url}\n   ${r.snippet}`).join('\n');
        return { content: [{ type: 'text', text }], structuredContent: { results } };
      } catch (err) {
        if (err instanceof ApiError && err.status < 500) return toolError(err.message);
        throw err;
      }
    },
  );

  server.registerTool(
    'get_page',
    {
      title: 'Read a documentation page',
      description: 'Returns one page of this documentation site as Markdown. Takes a page path ("guides/setup", "/guides/setup.md") or a full URL of this site, such as a search result\'s URL. An old path the site redirects is followed to the page it now answers with.',
      inputSchema: GET_PAGE_INPUT,
      annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
    },
    async ({ path, version }) => {
      count();
      try {
        const page = await readPage(path, version);
        if (!page.ok) return toolError(page.message);
        return { content: [{ type: 'text', text: page.markdown }] };
      } catch (err) {
        if (err instanceof ApiError && err.status < 500) return toolError(err.message);
        throw err;
      }
    },
  );

  server.registerResource(
    'page',
    new ResourceTemplate(`${origin}/{+path}`, {
      list: async () => {
        const source = servedSource(site);
        const pages = await readablePages(reader, source);
        return { resources: pages.map((p) => ({ uri: pageUrl(source, p.path), name: p.path, title: p.title ?? p.path, mimeType: 'text/markdown' })) };
      },
    }),
    { title: 'Documentation page', description: 'A page of this documentation site as Markdown', mimeType: 'text/markdown' },
    async (uri) => {
      count();
      const page = await readPage(uri.href, undefined).catch((err: unknown) => {
        if (err instanceof ApiError && err.status < 500) return { ok: false as const, message: err.message };
        throw err;
      });
      if (!page.ok) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${page.message}`, { uri: uri.href });
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: page.markdown }] };
    },
  );
  return server;
}
