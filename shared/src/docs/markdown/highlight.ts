/**
 * Code highlighting with shiki (brief H4): `createHighlighterCore` + the JavaScript regex engine, themes
 * github-light and github-dark emitted as CSS variables (`defaultColor: 'light'`; dark colors in
 * `--shiki-dark` / `--shiki-dark-bg`, switched by `html[data-theme="dark"]` in components.css).
 * Languages load on demand; an unknown language renders as plain text without a warning.
 * One highlighter is created per worker and reused for every page (no per-page setup cost).
 */
import { createHighlighterCore, type HighlighterCore, type ShikiTransformer } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { bundledLanguages } from 'shiki/langs';
import { parseFenceMeta, type FenceMeta } from './fence-meta';
import { escapeHtml } from './html';
import { namedIcon } from './icons';
import { renderTextBlock, textBlockKind } from './text-block';

/** Options for one code block's HTML. */
export interface CodeBlockOptions {
  /** false: no title bar even when the meta names one (CodeGroup shows titles as tabs instead) */
  titleBar?: boolean;
}

/** Renders fenced code to HTML; create once with {@link createCodeHighlighter} and share. */
export interface CodeHighlighter {
  /**
   * The whole code-block HTML for `code` in `lang` with fence `meta`: `<figure class="q-code">` with an
   * optional title bar (`figcaption`), highlighted lines (`{1,3-5}`), and a copy button.
   * ```mermaid and ```math return a labelled text block instead. Never throws for unknown languages.
   */
  highlight(code: string, lang: string | null | undefined, meta?: string | null): Promise<string>;
  /** Loads the grammars of these fence languages so that {@link highlightSync} can color them. */
  loadLanguages(langs: Iterable<string | null | undefined>): Promise<void>;
  /** Like {@link highlight} but synchronous: a language not loaded yet renders as plain text. */
  highlightSync(code: string, lang: string | null | undefined, meta?: string | null, options?: CodeBlockOptions): string;
}

const PLAIN = new Set(['', 'text', 'txt', 'plain', 'plaintext', 'none', 'output', 'console-output']);
const THEMES = { light: 'github-light', dark: 'github-dark' } as const;

/**
 * Lines at least this long render uncolored (they are minified data, not code to read); this bounds the
 * work of one line now that tokenizing has no time limit.
 */
export const MAX_HIGHLIGHT_LINE_LENGTH = 10_000;

/**
 * Tokenizer options of every `codeToHtml` call. shiki's default `tokenizeTimeLimit` (500 ms per line)
 * makes colors depend on machine load: with both themes shiki tokenizes the code once per theme, light
 * first, and the first pass over a grammar rule also compiles its regular expressions; on a busy worker
 * that pass can exceed the limit, and vscode-textmate then returns the rest of the line as one plain
 * token — the light colors of that line are lost while the (fast, second) dark pass is right. No time
 * limit makes the output a function of the input only; the line-length cap bounds the work instead.
 */
const TOKENIZE = { tokenizeTimeLimit: 0, tokenizeMaxLineLength: MAX_HIGHLIGHT_LINE_LENGTH } as const;

/** Normalizes a fence language to a bundled shiki language id, or 'text'. */
function languageId(lang: string | null | undefined): string {
  const l = (lang ?? '').trim().toLowerCase();
  if (PLAIN.has(l)) return 'text';
  return Object.hasOwn(bundledLanguages, l) ? l : 'text';
}

/** Adds class `highlighted` to the given 1-based lines. */
function lineHighlighter(lines: Set<number>): ShikiTransformer {
  return {
    name: 'quire:line-highlight',
    line(node, line) {
      if (lines.has(line)) this.addClassToHast(node, 'highlighted');
    },
  };
}

/** The copy button placed in every code frame (components.js copies the `pre`'s text). */
export const COPY_BUTTON =
  `<button type="button" class="q-copy" aria-label="Copy code" data-q-copy>` +
  `${namedIcon('copy', 'q-icon q-copy-icon')}${namedIcon('check', 'q-icon q-copied-icon')}</button>`;

/** Wraps shiki's `<pre>` into Quire's code figure. */
function figure(pre: string, lang: string, meta: FenceMeta, options: CodeBlockOptions): string {
  const classes = ['q-code'];
  if (meta.wrap) classes.push('q-code-wrap');
  if (meta.lineNumbers) classes.push('q-code-lines');
  const title =
    options.titleBar !== false && meta.title ? `<figcaption class="q-code-title">${escapeHtml(meta.title)}</figcaption>` : '';
  const copy = meta.noCopy ? '' : COPY_BUTTON;
  return `<figure class="${classes.join(' ')}" data-lang="${escapeHtml(lang)}">${title}<div class="q-code-frame">${pre}${copy}</div></figure>`;
}

/**
 * Creates the shared highlighter (about 30 ms; grammars are loaded later, on first use).
 * @throws only if shiki itself cannot start (a broken install)
 */
export async function createCodeHighlighter(): Promise<CodeHighlighter> {
  const core: HighlighterCore = await createHighlighterCore({
    themes: [import('shiki/themes/github-light.mjs'), import('shiki/themes/github-dark.mjs')],
    langs: [],
    engine: createJavaScriptRegexEngine(),
  });
  const loading = new Map<string, Promise<boolean>>();
  const loaded = new Set<string>(['text']);

  const load = (id: string): Promise<boolean> => {
    if (loaded.has(id)) return Promise.resolve(true);
    let p = loading.get(id);
    if (!p) {
      const loader = bundledLanguages[id as keyof typeof bundledLanguages];
      p = core
        .loadLanguage(loader)
        .then(() => {
          loaded.add(id);
          return true;
        })
        .catch(() => false);
      loading.set(id, p);
    }
    return p;
  };

  const highlightSync: CodeHighlighter['highlightSync'] = (code, lang, metaText, options = {}) => {
    const kind = textBlockKind(lang);
    if (kind) return renderTextBlock(kind, code);
    const meta = parseFenceMeta(metaText);
    let id = languageId(lang);
    if (!loaded.has(id)) id = 'text';
    const source = code.replace(/\n$/, '');
    let pre: string;
    try {
      pre = core.codeToHtml(source, {
        lang: id,
        themes: THEMES,
        defaultColor: 'light',
        ...TOKENIZE,
        transformers: meta.highlight.size ? [lineHighlighter(meta.highlight)] : [],
      });
    } catch {
      pre = core.codeToHtml(source, { lang: 'text', themes: THEMES, defaultColor: 'light', ...TOKENIZE });
    }
    const shownLang = (lang ?? '').trim().toLowerCase() || 'text';
    return figure(pre, shownLang, meta, options);
  };

  return {
    highlightSync,
    async loadLanguages(langs) {
      const ids = new Set<string>();
      for (const l of langs) ids.add(languageId(l));
      await Promise.all([...ids].map(load));
    },
    async highlight(code, lang, meta) {
      await load(languageId(lang));
      return highlightSync(code, lang, meta);
    },
  };
}
