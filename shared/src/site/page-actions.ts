/**
 * The page actions beside a page's title (decisions.md section 6; Mintlify's contextual menu,
 * docs.json `contextual.options`): a split button whose main part is the first action and whose
 * menu button (`aria-haspopup="menu"`) opens every action as a `menuitem`:
 *
 * - `copy` "Copy page": copies the page's Markdown (fetched from `<page>.md`), then says "Copied";
 * - `view` "View as Markdown": the page's `.md`;
 * - `chatgpt`, `claude`, `perplexity`: a new conversation asked to read the page
 *   (`https://chatgpt.com/?hints=search&q=`, `https://claude.ai/new?q=`,
 *   `https://www.perplexity.ai/search?q=` + "Read <page URL> so I can ask questions about it.");
 * - `mcp` "Connect to your AI tool": the site's MCP setup page `/_quire/mcp`;
 * - `cursor`, `vscode`: install the site's MCP server (`<site>/mcp`) through the editors' deep links;
 * - a custom option: its link, `$path` standing for the page's path (`/guides/setup`).
 *
 * The page's absolute URL is known only in the browser (one deployment answers on its production
 * host and on custom domains), so page-actions.js fills the links marked `data-q-pa-link` and
 * reveals the control, which is rendered invisible (keeping its space, so nothing moves on load):
 * where no script runs (the desktop editor's preview strips scripts) it never shows.
 */
import { DEFAULT_CONTEXTUAL_OPTIONS } from '../docs/config/site-fields';
import type { ContextualOption } from '../docs/types';
import { escapeHtml } from './escape';
import { icon, type IconName } from './icons';

/** The path of the site's MCP setup page ("Connect to your AI tool"). */
export const MCP_SETUP_PATH = '/_quire/mcp';

/** Label, description and icon of each built-in action. */
const BUILT_IN: Record<Exclude<ContextualOption['id'], 'custom'>, { label: string; description: string; icon: IconName }> = {
  copy: { label: 'Copy page', description: 'Copy this page as Markdown for LLMs', icon: 'copy' },
  view: { label: 'View as Markdown', description: 'View this page as plain text', icon: 'markdown' },
  chatgpt: { label: 'Open in ChatGPT', description: 'Ask questions about this page', icon: 'message' },
  claude: { label: 'Open in Claude', description: 'Ask questions about this page', icon: 'sparkles' },
  perplexity: { label: 'Open in Perplexity', description: 'Ask questions about this page', icon: 'search' },
  mcp: { label: 'Connect to your AI tool', description: 'Use these docs from your AI tool (MCP)', icon: 'plug' },
  cursor: { label: 'Connect to Cursor', description: 'Install the MCP server in Cursor', icon: 'terminal' },
  vscode: { label: 'Connect to VS Code', description: 'Install the MCP server in VS Code', icon: 'code' },
};

/** What {@link renderPageActions} needs about the page. */
export interface PageActionsInput {
  /** the configured actions (SiteConfig.contextual); undefined: docs/config/site-fields.ts `DEFAULT_CONTEXTUAL_OPTIONS` (copy, view, chatgpt, claude) */
  options: readonly ContextualOption[] | undefined;
  /** the page path (`guides/setup`, `index`) */
  path: string;
  /** the deployment's base path ('' or `/v1`) */
  base: string;
  /** the site's name (the MCP server's name in editors) */
  siteName: string;
}

/** The page actions control, '' when the configuration lists none. */
export function renderPageActions(input: PageActionsInput): string {
  const options = input.options ?? DEFAULT_CONTEXTUAL_OPTIONS;
  if (options.length === 0) return '';
  const segments = input.path.split('/').map(encodeURIComponent).join('/');
  const mdHref = `${input.base}/${segments}.md`;
  const items = options.map((o) => item(o, mdHref, input.path)).join('');
  const first = options[0]!;
  const primary = item(first, mdHref, input.path, true);
  return (
    `<div class="q-pa" data-q-page-actions data-q-md="${escapeHtml(mdHref)}" data-q-site-name="${escapeHtml(input.siteName)}">` +
    primary +
    `<button type="button" class="q-pa-toggle" aria-haspopup="menu" aria-expanded="false" aria-controls="q-pa-menu" aria-label="More page actions">${icon('chevron-down')}</button>` +
    `<div class="q-pa-menu" id="q-pa-menu" role="menu" aria-label="Page actions" hidden>${items}</div>` +
    `<span class="q-visually-hidden" role="status" data-q-pa-status></span></div>`
  );
}

/** One action: a menu item, or (`primary`) the split button's main part. */
function item(o: ContextualOption, mdHref: string, pagePath: string, primary = false): string {
  const cls = primary ? 'q-pa-primary' : 'q-pa-item';
  const role = primary ? '' : ' role="menuitem" tabindex="-1"';
  const label = o.id === 'custom' ? o.title : BUILT_IN[o.id].label;
  const description = o.id === 'custom' ? o.description : BUILT_IN[o.id].description;
  const glyph = icon(o.id === 'custom' ? 'arrow-up-right' : BUILT_IN[o.id].icon);
  const text = primary
    ? `${glyph}<span class="q-pa-label">${escapeHtml(label)}</span>`
    : `${glyph}<span class="q-pa-text"><span class="q-pa-label">${escapeHtml(label)}</span>${description ? `<span class="q-pa-desc">${escapeHtml(description)}</span>` : ''}</span>`;
  const newTab = ' target="_blank" rel="noopener noreferrer"';
  switch (o.id) {
    case 'copy':
      return `<button type="button" class="${cls}"${role} data-q-pa="copy">${text}</button>`;
    case 'view':
      return `<a class="${cls}"${role} href="${escapeHtml(mdHref)}"${newTab} data-q-pa="view">${text}</a>`;
    case 'mcp':
      return `<a class="${cls}"${role} href="${MCP_SETUP_PATH}" data-q-pa="mcp">${text}</a>`;
    case 'custom': {
      const href = o.href.replace(/\$path/g, `/${pagePath === 'index' ? '' : pagePath}`);
      return `<a class="${cls}"${role} href="${escapeHtml(href)}"${newTab} data-q-pa="custom">${text}</a>`;
    }
    default:
      // chatgpt, claude, perplexity, cursor, vscode: page-actions.js writes the href (it needs the page's absolute URL)
      return `<a class="${cls}"${role} href="#"${o.id === 'cursor' || o.id === 'vscode' ? '' : newTab} data-q-pa="${o.id}" data-q-pa-link>${text}</a>`;
  }
}
