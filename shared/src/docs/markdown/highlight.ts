/**
 * Code highlighting with shiki (site-look.md "Components": shiki in both themes):
 * `createHighlighterCore` + the JavaScript regex engine, themes github-light and github-dark emitted as
 * CSS variables (`defaultColor: 'light'`; dark colors in `--shiki-dark` / `--shiki-dark-bg`, switched
 * by `html[data-theme="dark"]` in components.css).
 * Languages load on demand; an unknown language renders as plain text without a warning.
 * One highlighter is created per worker and reused for every page (no per-page setup cost).
 */
import { createHighlighterCore, type HighlighterCore } from 'shiki/core';
import type { BuildWarning } from '../types';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { bundledLanguages } from 'shiki/langs';
import { codeFigure } from './code-figure';
import { lineTransformers } from './code-lines';
import { renderMermaid } from './code-mermaid';
import { parseFenceMeta } from './fence-meta';
import { renderMath } from './math';
import { textBlockKind } from './text-block';

export { COPY_BUTTON } from './code-figure';

/** Options for one code block's HTML. */
export interface CodeBlockOptions {
  /** false: no title bar even when the meta names one (CodeGroup shows titles as tabs instead) */
  titleBar?: boolean;
  /** 1-based line of the block's opening fence in its file (renderPage names it in budget warnings) */
  line?: number;
  /** the page's allowance, shared by its blocks ({@link CodeHighlighter.pageBudget}); none: block cap only */
  budget?: HighlightBudget;
  /** told when part of the block is shown without colors because of a limit */
  onCut?: (cut: HighlightCut) => void;
}

/**
 * Deterministic work caps of highlighting (characters, not time, so the output depends on the input
 * only; see tokenizeOptions). Measured on a loaded 2-core build machine: ordinary code costs 30-90 µs per
 * character to color, some grammars much more on crafted lines (a `cpp` line of 8,000 spaces: 18 s).
 */
export interface HighlightLimits {
  /** lines at least this long render uncolored (the tokenizer's cost grows faster than the line) */
  lineLength: number;
  /** characters colored per block; the lines after render as plain text */
  blockChars: number;
  /** characters colored per page, over all its blocks */
  pageChars: number;
}

/** The limits of {@link createCodeHighlighter} unless given: a few seconds of work per page at worst. */
export const DEFAULT_HIGHLIGHT_LIMITS: Readonly<HighlightLimits> = { lineLength: 1_000, blockChars: 20_000, pageChars: 60_000 };

/** What a page's code blocks may still color; one per page render. */
export interface HighlightBudget {
  /** characters left (lines counted with their newline; uncolored long lines and plain text are free) */
  remaining: number;
}

/** Part of a code block shown without colors, and why. */
export interface HighlightCut {
  /** 1-based line of the block: the long line, or the first plain line of the rest */
  line: number;
  /** 'line': that line is too long; 'block' / 'page': the rest of the block is past that cap */
  reason: 'line' | 'block' | 'page';
  /** more long lines after `line` ('line' only) */
  more?: number;
}

/**
 * The build warning for a {@link HighlightCut} of the block whose fence is at `fenceLine` of `file`.
 * Line numbers are those of the file the block was read from (a snippet's own, when inlined).
 */
export function highlightCutWarning(
  file: string,
  fenceLine: number | undefined,
  cut: HighlightCut,
  limits: HighlightLimits = DEFAULT_HIGHLIGHT_LIMITS,
): BuildWarning {
  const line = fenceLine === undefined ? undefined : fenceLine + cut.line;
  const where = `${file}${line === undefined ? '' : `:${line}`}`;
  const n = (x: number) => x.toLocaleString('en-US');
  const what =
    cut.reason === 'line'
      ? `a code line of ${n(limits.lineLength)} characters or more${cut.more ? ` (and ${cut.more} more in this block)` : ''} is shown without colors`
      : cut.reason === 'block'
        ? `the code block is longer than ${n(limits.blockChars)} characters; from here on it is shown without colors`
        : `the page's code blocks exceed ${n(limits.pageChars)} characters; from here on code is shown without colors`;
  return { file, ...(line === undefined ? {} : { line }), kind: 'highlight', message: `${where}: ${what}` };
}

/** Renders fenced code to HTML; create once with {@link createCodeHighlighter} and share. */
export interface CodeHighlighter {
  /**
   * The whole code-block HTML for `code` in `lang` with fence `meta`: `<figure class="q-code">` with an
   * optional title bar (`figcaption`) holding the copy button, and the line marks of code-lines.ts.
   * ```mermaid returns a diagram figure (code-mermaid.ts), ```math (`latex`, `tex`, `katex`) KaTeX
   * display math (math.ts). Never throws for unknown languages.
   */
  highlight(code: string, lang: string | null | undefined, meta?: string | null): Promise<string>;
  /** Loads the grammars of these fence languages so that {@link highlightSync} can color them. */
  loadLanguages(langs: Iterable<string | null | undefined>): Promise<void>;
  /** Like {@link highlight} but synchronous: a language not loaded yet renders as plain text. */
  highlightSync(code: string, lang: string | null | undefined, meta?: string | null, options?: CodeBlockOptions): string;
  /** A fresh per-page allowance ({@link HighlightLimits.pageChars}) to pass in {@link CodeBlockOptions.budget}. */
  pageBudget(): HighlightBudget;
  /** The limits this highlighter applies. */
  readonly limits: Readonly<HighlightLimits>;
  /** KaTeX HTML of TeX (math.ts `renderMath`): inline `$x$`, or display (`display` true). */
  math(tex: string, display: boolean): string;
}

const PLAIN = new Set(['', 'text', 'txt', 'plain', 'plaintext', 'none', 'output', 'console-output']);
const THEMES = { light: 'github-light', dark: 'github-dark' } as const;

/**
 * Lines at least this long render uncolored (minified data, not code to read). 1,000: tokenizing cost
 * grows faster than the line on some grammars (`cpp`: 0.4 s for 1,000 spaces, 6 s for 4,000, 18 s for 8,000).
 */
export const MAX_HIGHLIGHT_LINE_LENGTH = DEFAULT_HIGHLIGHT_LIMITS.lineLength;

/**
 * Tokenizer options of every `codeToHtml` call. shiki's default `tokenizeTimeLimit` (500 ms per line)
 * makes colors depend on machine load: with both themes shiki tokenizes the code once per theme, light
 * first, and the first pass over a grammar rule also compiles its regular expressions; on a busy worker
 * that pass can exceed the limit, and vscode-textmate then returns the rest of the line as one plain
 * token — the light colors of that line are lost while the (fast, second) dark pass is right. No time
 * limit makes the output a function of the input only; the character caps of {@link HighlightLimits}
 * bound the work instead (a time limit would not help anyway: vscode-textmate checks it only between
 * regular-expression searches, never inside one).
 */
function tokenizeOptions(limits: HighlightLimits) {
  return { tokenizeTimeLimit: 0, tokenizeMaxLineLength: limits.lineLength } as const;
}

/** Normalizes a fence language to a bundled shiki language id, or 'text'. */
function languageId(lang: string | null | undefined): string {
  const l = (lang ?? '').trim().toLowerCase();
  if (PLAIN.has(l)) return 'text';
  return Object.hasOwn(bundledLanguages, l) ? l : 'text';
}

/**
 * How many leading lines of a block to color within `allowance` characters, and the cuts to report.
 * Lines at least `lineLength` long cost nothing (shiki leaves them uncolored) and are reported once.
 */
function planBlock(lines: string[], limits: HighlightLimits, allowance: number): { colored: number; used: number; cuts: HighlightCut[] } {
  const cuts: HighlightCut[] = [];
  let used = 0;
  let longLines = 0;
  let colored = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const length = lines[i]!.length;
    if (length >= limits.lineLength) {
      if (longLines++ === 0) cuts.push({ line: i + 1, reason: 'line' });
      continue;
    }
    if (used + length + 1 > allowance) {
      colored = i;
      break;
    }
    used += length + 1;
  }
  if (longLines > 1) cuts[0]!.more = longLines - 1;
  return { colored, used, cuts };
}

/** Appends the lines of shiki `<pre>` `tail` to those of shiki `<pre>` `head` (same themes and markup). */
function appendLines(head: string, tail: string): string {
  const end = head.lastIndexOf('</code>');
  const start = tail.indexOf('<code>') + '<code>'.length;
  const tailEnd = tail.lastIndexOf('</code>');
  return `${head.slice(0, end)}\n${tail.slice(start, tailEnd)}${head.slice(end)}`;
}

/**
 * Creates the shared highlighter (about 30 ms; grammars are loaded later, on first use) with the
 * default limits, or these (tests).
 * @throws only if shiki itself cannot start (a broken install)
 */
export async function createCodeHighlighter(limitOverrides: Partial<HighlightLimits> = {}): Promise<CodeHighlighter> {
  const limits: HighlightLimits = { ...DEFAULT_HIGHLIGHT_LIMITS, ...limitOverrides };
  const tokenize = tokenizeOptions(limits);
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
    if (kind === 'math') return renderMath(code.replace(/\n$/, ''), true);
    if (kind === 'mermaid') return renderMermaid(code);
    const meta = parseFenceMeta(metaText);
    let id = languageId(lang);
    if (!loaded.has(id)) id = 'text';
    const source = code.replace(/\n$/, '');
    const plain = (text: string, offset = 0) =>
      core.codeToHtml(text, { lang: 'text', themes: THEMES, defaultColor: 'light', ...tokenize, transformers: lineTransformers(meta, text, offset) });
    let pre: string;
    if (id === 'text') pre = plain(source);
    else {
      const lines = source.split('\n');
      const budget = options.budget;
      const allowance = Math.min(limits.blockChars, budget ? budget.remaining : Infinity);
      const plan = planBlock(lines, limits, allowance);
      if (budget) budget.remaining -= plan.used;
      if (plan.colored < lines.length) plan.cuts.push({ line: plan.colored + 1, reason: allowance < limits.blockChars ? 'page' : 'block' });
      for (const cut of plan.cuts) options.onCut?.(cut);
      const head = lines.slice(0, plan.colored).join('\n');
      try {
        pre = plan.colored === 0 ? plain(source) : core.codeToHtml(head, {
          lang: id,
          themes: THEMES,
          defaultColor: 'light',
          ...tokenize,
          transformers: lineTransformers(meta, head),
        });
      } catch {
        pre = plain(head);
      }
      if (plan.colored > 0 && plan.colored < lines.length) pre = appendLines(pre, plain(lines.slice(plan.colored).join('\n'), plan.colored));
    }
    const shownLang = (lang ?? '').trim().toLowerCase() || 'text';
    return codeFigure(pre, shownLang, meta, options.titleBar !== false);
  };

  return {
    limits,
    math: renderMath,
    pageBudget: () => ({ remaining: limits.pageChars }),
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
