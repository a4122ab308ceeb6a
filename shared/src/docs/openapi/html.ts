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
 * A titled, tabbed code group in the markup of the page renderer's `CodeGroup` (H4's tabSet:
 * `data-q-tabs`, `q-tablist`, `q-tab` buttons with `data-q-tab`/`data-sync`, `q-tabpanel` panels
 * with `data-q-panel`, all but the first `hidden`), so the theme's tab script switches it and
 * syncs the chosen language across the page. Without script the first panel shows.
 */
export async function codeGroup(tabs: CodeTab[], title: string, highlight?: Highlighter): Promise<string> {
  if (tabs.length === 0) return '';
  const buttons = tabs
    .map(
      (t, i) =>
        `<button type="button" class="q-tab" role="tab" data-q-tab="${i}" data-sync="${esc(t.label)}" aria-selected="${i === 0}">${esc(t.label)}</button>`,
    )
    .join('');
  const panels = await Promise.all(
    tabs.map(
      async (t, i) =>
        `<div class="q-tabpanel" role="tabpanel" data-q-panel="${i}"${i === 0 ? '' : ' hidden'}>${await codeBlock(t.code, t.lang, highlight)}</div>`,
    ),
  );
  return (
    `<div class="q-openapi-examples" data-title="${esc(title)}"><div class="q-openapi-examples-title">${esc(title)}</div>` +
    `<div class="q-code-group q-codegroup" data-q-tabs><div class="q-tablist" role="tablist">${buttons}</div>${panels.join('')}</div></div>`
  );
}
