/**
 * HTML building blocks of the endpoint page: escaping, Markdown descriptions (markdown-it with raw
 * HTML disabled, so a spec cannot inject markup), and code blocks through the optional highlighter.
 * Output uses plain tags with class/data-* attributes only (the page renderer sanitizes it).
 */
import MarkdownIt from 'markdown-it';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an element body or a double-quoted attribute value. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

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
 * A tabbed code group: a strip of tab buttons and one panel per tab, the first active
 * (`data-active`). Works without script as a list of labelled blocks (CSS shows the active one
 * when the theme's tab script has marked the group `data-ready`).
 */
export async function codeGroup(tabs: CodeTab[], title: string, highlight?: Highlighter): Promise<string> {
  if (tabs.length === 0) return '';
  const buttons = tabs
    .map((t, i) => `<button type="button" class="q-code-group-tab" data-tab="${i}" data-lang="${esc(t.lang)}"${i === 0 ? ' data-active="true"' : ''}>${esc(t.label)}</button>`)
    .join('');
  const panels = await Promise.all(
    tabs.map(
      async (t, i) =>
        `<div class="q-code-group-panel" data-tab="${i}" data-label="${esc(t.label)}"${i === 0 ? ' data-active="true"' : ''}>${await codeBlock(t.code, t.lang, highlight)}</div>`,
    ),
  );
  return `<div class="q-code-group q-openapi-code" data-code-group="true" data-title="${esc(title)}"><div class="q-code-group-head"><span class="q-code-group-title">${esc(title)}</span><div class="q-code-group-tabs">${buttons}</div></div>${panels.join('')}</div>`;
}
