/**
 * The "Use these docs with your AI tool" page of every site (`/_quire/mcp`; decisions.md section 6:
 * `<site>/mcp` is the site's MCP server): the exact MCP URL of the site and how to add it to common
 * MCP clients (Claude Code, Claude Desktop, Cursor, VS Code, ChatGPT, any other client), each snippet
 * in the theme's code frame with a copy button (components.js copies a frame's `<pre>` text; the
 * button keeps its own accessible name). Markup only, no script (site CSP); pure, every value escaped.
 */
import { namedIcon } from '../docs/markdown/icons';
import { escapeHtml } from './escape';

/** Title of the page. */
export const MCP_HELP_TITLE = 'Use these docs with your AI tool';

/** What the page shows. */
export interface McpHelpOptions {
  /** the site's MCP server URL (`https://acme-docs.example.com/mcp`) */
  mcpUrl: string;
  /**
   * for a site on this computer (`*.localhost`, which Node.js-based clients may not resolve): the
   * same server at an address they reach (`http://127.0.0.1:4000/sites/acme-docs.localhost/mcp`).
   * Given, it is the URL of every snippet, and the page says why.
   */
  localUrl?: string;
  /** the name clients list the server under (`acme-docs`: letters, digits, `-`) */
  serverName: string;
  /** whether the site has restricted pages (then the page explains the `x-audience-token` header) */
  gated: boolean;
}

/** One client's instructions: a sentence, and the text to paste. */
export interface McpClientSnippet {
  /** the client's name, also the copy button's subject */
  client: string;
  /** what to do (plain text) */
  text: string;
  /** what to paste or run */
  code: string;
  /** the copy button's accessible name (default `Copy <client> setup`) */
  copyLabel?: string;
}

/** Placeholder shown where a reader's own access token goes. */
export const TOKEN_PLACEHOLDER = 'YOUR_ACCESS_TOKEN';

/** The instructions per client (see the module comment); `withToken` adds the `x-audience-token` header where the client can send one. */
export function mcpClientSnippets(options: Pick<McpHelpOptions, 'mcpUrl' | 'localUrl' | 'serverName'>, withToken = false): McpClientSnippet[] {
  const { serverName: name } = options;
  const url = options.localUrl ?? options.mcpUrl;
  const headers = withToken ? { headers: { 'x-audience-token': TOKEN_PLACEHOLDER } } : {};
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return [
    {
      client: 'Claude Code',
      text: 'Run this in a terminal:',
      code: `claude mcp add --transport http ${name} ${url}${withToken ? ` --header "x-audience-token: ${TOKEN_PLACEHOLDER}"` : ''}`,
    },
    {
      client: 'Claude Desktop',
      text: 'Open Settings > Connectors > Add custom connector and paste the URL. Or add this to claude_desktop_config.json (needs Node.js):',
      code: json({ mcpServers: { [name]: { command: 'npx', args: ['-y', 'mcp-remote', url, ...(withToken ? ['--header', `x-audience-token:${TOKEN_PLACEHOLDER}`] : [])] } } }),
    },
    {
      client: 'Cursor',
      text: 'Add this to ~/.cursor/mcp.json (or .cursor/mcp.json in a project):',
      code: json({ mcpServers: { [name]: { url, ...headers } } }),
    },
    {
      client: 'VS Code',
      text: 'Add this to .vscode/mcp.json in your workspace (or run "MCP: Add Server" and choose HTTP):',
      code: json({ servers: { [name]: { type: 'http', url, ...headers } } }),
    },
    {
      client: 'ChatGPT',
      text: 'With developer mode on (Settings > Apps & Connectors > Advanced), create a connector, paste the URL as its MCP server URL and choose no authentication.',
      code: url,
    },
    {
      client: 'Other MCP clients',
      text: `Connect with the Streamable HTTP transport; no API key is needed. Tools: search (query, version, limit) and get_page (path or URL); the pages are also listed as resources.${withToken ? ' Send your access token in the x-audience-token header.' : ''}`,
      code: url,
      copyLabel: 'Copy MCP server URL for other clients',
    },
  ];
}

const COPY_ICONS = `${namedIcon('copy', 'q-icon q-copy-icon')}${namedIcon('check', 'q-icon q-copied-icon')}`;

/** A snippet in the theme's code frame, with a copy button named `label`. */
function codeFrame(code: string, label: string): string {
  return (
    `<figure class="q-code"><div class="q-code-frame"><pre><code>${escapeHtml(code)}</code></pre>` +
    `<button type="button" class="q-copy" aria-label="${escapeHtml(label)}" data-q-copy>${COPY_ICONS}</button></div></figure>`
  );
}

const STYLE = '<style>.q-mcp-help{max-width:48rem}.q-mcp-help h2{margin-top:2rem}.q-mcp-help pre{white-space:pre-wrap;word-break:break-all}</style>';

/** The page's `<article>` (put into the site's chrome by site hosting). */
export function renderMcpHelpArticle(options: McpHelpOptions): string {
  const clients = mcpClientSnippets(options)
    .map((s, i) => `<section aria-labelledby="q-mcp-client-${i}"><h2 id="q-mcp-client-${i}">${escapeHtml(s.client)}</h2><p>${escapeHtml(s.text)}</p>${codeFrame(s.code, s.copyLabel ?? `Copy ${s.client} setup`)}</section>`)
    .join('');
  const gated = options.gated
    ? '<section aria-labelledby="q-mcp-restricted"><h2 id="q-mcp-restricted">Restricted pages</h2>' +
      `<p>Some pages of these docs need access. Send your access token in the <code>x-audience-token</code> header and the AI tool can read the pages your token opens; replace ${TOKEN_PLACEHOLDER} with your token. For example, with Claude Code:</p>` +
      codeFrame(mcpClientSnippets(options, true)[0]!.code, 'Copy Claude Code setup with access token') +
      '<p>In Cursor and VS Code, add <code>"headers": {"x-audience-token": "…"}</code> next to <code>url</code>.</p></section>'
    : '';
  const local = options.localUrl
    ? `<p>These docs are served from this computer: their address ends in <code>.localhost</code>, which browsers find but MCP clients built on Node.js (Claude Code, Claude Desktop's mcp-remote, Cursor, VS Code) may not. The address below reaches the same MCP server on 127.0.0.1; browser-based clients can also use <code>${escapeHtml(options.mcpUrl)}</code>.</p>`
    : '';
  return (
    `${STYLE}<article class="q-article q-mcp-help" aria-labelledby="q-mcp-title"><h1 class="q-title" id="q-mcp-title">${MCP_HELP_TITLE}</h1>` +
    '<p>These docs have an MCP server. Add it to your AI tool and the tool can search these docs and read their pages as Markdown while it helps you. It only reads; no API key is needed.</p>' +
    `${local}<p>MCP server URL:</p>${codeFrame(options.localUrl ?? options.mcpUrl, 'Copy MCP server URL')}${clients}${gated}</article>`
  );
}
