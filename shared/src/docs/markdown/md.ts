/**
 * `.md` pages through markdown-it (fast, about 1.6 ms a page; `html: true`, the result is
 * sanitized afterwards by the caller). One parser instance per process; per-page state travels in `env`.
 */
import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import type { CodeHighlighter } from './highlight';
import { anchorHtml, type HeadingCollector } from './headings';
import { fenceDisplayMath } from './math-block';
import { inlineMathSource, markInlineMath } from './math-inline';
import { splitInfo } from './fence-meta';

/** 1-based line of a block token's first line (markdown-it maps are 0-based); for a fence, the fence line. */
function fenceLine(t: Token): number | undefined {
  return t.map ? t.map[0] + 1 : undefined;
}

/** Per-render state handed to the markdown-it rules. */
interface MdEnv {
  highlighter: CodeHighlighter;
  headings: HeadingCollector;
  /** preview only: top-level blocks get `data-line` (render-page.ts `sourceLines`) */
  sourceLines?: boolean;
}

const md = new MarkdownIt({ html: true, linkify: true, typographer: false });

md.core.ruler.push('quire_heading_ids', (state) => {
  const env = state.env as MdEnv;
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i]!;
    if (open.type !== 'heading_open') continue;
    const inline = tokens[i + 1];
    const text = (inline?.children ?? [])
      .filter((t) => t.type === 'text' || t.type === 'code_inline')
      .map((t) => (t.type === 'code_inline' ? (inlineMathSource(t.content) ?? t.content) : t.content))
      .join('');
    const id = env.headings.heading(Number(open.tag.slice(1)), text);
    open.attrSet('id', id);
    for (let j = i + 1; j < tokens.length; j++) {
      if (tokens[j]!.type === 'heading_close') {
        tokens[j]!.meta = { id };
        break;
      }
    }
  }
});

md.core.ruler.push('quire_source_lines', (state) => {
  if (!(state.env as MdEnv).sourceLines) return;
  for (const t of state.tokens) if (t.level === 0 && t.nesting === 1 && t.map) t.attrSet('data-line', String(t.map[0] + 1));
});

md.renderer.rules.heading_open = (tokens, idx, options, env: MdEnv, self) => {
  const id = tokens[idx]!.attrGet('id');
  return self.renderToken(tokens, idx, options) + (id ? env.headings.aliasTarget(id) : '');
};
md.renderer.rules.heading_close = (tokens, idx) => {
  const t = tokens[idx]!;
  const id = (t.meta as { id?: string } | null)?.id;
  return `${id ? anchorHtml(id) : ''}</${t.tag}>\n`;
};
md.renderer.rules.fence = (tokens, idx, _options, env: MdEnv) => {
  const t = tokens[idx]!;
  const { lang, meta } = splitInfo(t.info);
  return env.highlighter.highlightSync(t.content, lang, meta, { line: fenceLine(t) }) + '\n';
};
md.renderer.rules.code_block = (tokens, idx, _options, env: MdEnv) =>
  env.highlighter.highlightSync(tokens[idx]!.content, '', '', { line: fenceLine(tokens[idx]!) }) + '\n';
const defaultCodeInline = md.renderer.rules.code_inline!;
md.renderer.rules.code_inline = (tokens, idx, options, env: MdEnv, self) => {
  const tex = inlineMathSource(tokens[idx]!.content);
  return tex === undefined ? defaultCodeInline(tokens, idx, options, env, self) : env.highlighter.math(tex, false);
};
md.renderer.rules.table_open = () => '<div class="q-table"><table>\n';
md.renderer.rules.table_close = () => '</table></div>\n';

/** The fence languages of a token stream (to load their grammars before the synchronous render). */
function fenceLanguages(tokens: Token[]): string[] {
  return tokens.filter((t) => t.type === 'fence').map((t) => splitInfo(t.info).lang);
}

/**
 * Renders Markdown `body` (frontmatter already blanked) to unsanitized HTML, filling `headings`.
 * Never throws on bad Markdown: CommonMark has no syntax errors.
 */
export async function renderMarkdown(body: string, highlighter: CodeHighlighter, headings: HeadingCollector, sourceLines = false): Promise<string> {
  const env: MdEnv = { highlighter, headings, sourceLines };
  const tokens = md.parse(markInlineMath(fenceDisplayMath(body)), env);
  await highlighter.loadLanguages(fenceLanguages(tokens));
  return md.renderer.render(tokens, md.options, env);
}
