/**
 * HTML building blocks of the endpoint page: escaping, Markdown descriptions (markdown-it with raw
 * HTML disabled, so a spec cannot inject markup), and code blocks through the optional highlighter.
 * Output uses plain tags with class/data-* attributes only (the page renderer sanitizes it).
 */
import MarkdownIt from 'markdown-it';
import { tabSet } from '../markdown/components/tabs';
import { escapeHtml } from '../markdown/html';

/** Escapes text for an element body or a double-quoted attribute value (the page renderer's escapeHtml). */
export const esc = escapeHtml;

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

/** Renders a spec description (CommonMark + GFM tables/strikethrough) to HTML; '' for empty text. */
export function markdown(text: string | undefined): string {
  return text && text.trim() !== '' ? md.render(text).trim() : '';
}

/** Code highlighter signature of RenderOperationOptions.highlight. */
export type Highlighter = (code: string, lang: string) => Promise<string>;

/** A code block: the highlighter's HTML when given (falls back to plain on error), else a plain `<pre><code>`. */
export async function codeBlock(code: string, lang: string, highlight?: Highlighter): Promise<string> {
  if (highlight) {
    try {
      return await highlight(code, lang);
    } catch {
      // an unknown language must not fail the page: fall through to the plain block
    }
  }
  return `<pre class="q-openapi-pre"><code class="language-${esc(lang)}">${esc(code)}</code></pre>`;
}

/** One tab of {@link codeGroup}. */
export interface CodeTab {
  label: string;
  lang: string;
  code: string;
}

/**
 * A titled, tabbed code group built with the page renderer's own tab strip (`tabSet`: the markup
 * of `CodeGroup`, `data-q-tabs`/`data-q-tab`/`data-q-panel`, labels synced across the page by
 * `data-sync`), so the theme's tab script switches it. Without script the first panel shows.
 * Tab ids derive from `title` (`q-openapi-request-tab-0`): one operation's groups have distinct titles
 * and the page renderer's own tab sets use other prefixes.
 */
export async function codeGroup(tabs: CodeTab[], title: string, highlight?: Highlighter): Promise<string> {
  if (tabs.length === 0) return '';
  const panels = await Promise.all(tabs.map((t) => codeBlock(t.code, t.lang, highlight)));
  return (
    `<div class="q-openapi-examples" data-title="${esc(title)}"><div class="q-openapi-examples-title">${esc(title)}</div>` +
    `${tabSet(`q-openapi-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`, 'q-code-group q-codegroup', tabs.map((t) => ({ text: t.label })), panels)}</div>`
  );
}
