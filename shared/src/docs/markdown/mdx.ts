/**
 * `.mdx` pages (decisions.md section 5; MINTLIFY-FORMAT.md section 10): parsed by unified + remark-parse +
 * remark-mdx + remark-gfm (one frozen processor per process), resolved statically (snippets.ts: imports,
 * snippets, expressions; nothing is ever run), then converted by mdast-util-to-hast with Quire's own
 * handlers for JSX elements: known components → our markup (components/), lowercase HTML tags → kept as
 * HTML (sanitized later), unknown components → their children. `$$` math is fenced first (math-block.ts)
 * and `$x$` marked (math-inline.ts), since remark-math is not installed.
 */
import type { Root as HastRoot, ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import type { Root as MdastRoot } from 'mdast';
import { defaultHandlers, toHast, type Handler, type State } from 'mdast-util-to-hast';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { DocsError, type BuildWarning, type DocsFiles } from '../types';
import { COMPONENTS } from './components/index';
import { splitFrontmatter, substituteVariables } from './frontmatter';
import { customHeadingId, markCustomHeadingIds, takeCustomHeadingIds, unmarkCustomHeadingIds } from './custom-heading-ids';
import { anchorHtml, type HeadingCollector } from './headings';
import type { CodeHighlighter } from './highlight';
import { elementHtml } from './jsx-html';
import { fenceDisplayMath } from './math-block';
import { inlineMathSource, markInlineMath, unmarkInlineMath } from './math-inline';
import { isJsxElement, type MdxJsxElement, type UNode } from './mdx-nodes';
import { resolvePage } from './snippets';
import { lineMarkingHandlers } from './source-lines';
import type { TextEdit } from './text-edits';

const mdxProcessor = unified().use(remarkParse).use(remarkMdx).use(remarkGfm).freeze();
const markdownProcessor = unified().use(remarkParse).use(remarkGfm).freeze();

/** A parser error as thrown by micromark / remark-mdx (a VFileMessage). */
interface ParseFailure {
  reason?: string;
  message?: string;
  line?: number;
  column?: number;
  place?: { line: number; column: number } | { start: { line: number; column: number } };
}

/**
 * Parses MDX text (frontmatter already blanked) into a tree.
 * @throws DocsError(filePath, line, column) with the parser's reason when the MDX is invalid
 */
export function parseMdx(text: string, filePath: string): UNode {
  try {
    return mdxProcessor.parse(text) as unknown as UNode;
  } catch (e) {
    const err = e as ParseFailure;
    const reason = err.reason ?? err.message ?? String(e);
    // some micromark messages carry their place only in the text: "Expected a closing tag for `<Note>` (5:1-5:7)"
    const inText = /\((\d+):(\d+)(?:-\d+:\d+)?\)/.exec(reason);
    const start = err.place && 'start' in err.place ? err.place.start : err.place;
    const line = err.line ?? start?.line ?? (inText ? Number(inText[1]) : undefined);
    const column = err.column ?? start?.column ?? (inText ? Number(inText[2]) : undefined);
    throw new DocsError(`${filePath}${line ? `:${line}${column ? `:${column}` : ''}` : ''}: cannot parse MDX: ${reason}`, filePath, line, column);
  }
}

/**
 * A page body as the MDX parser gets it: `$$` blocks fenced (math-block.ts), then inline math and
 * `<Latex>` text marked (math-inline.ts), then custom heading ids `{#id}` made parseable
 * (custom-heading-ids.ts). With `steps`, the replacements of each step are appended to
 * it as one list per step, each in the coordinates of that step's input (text-edits.ts), so that
 * positions in the result can be traced back to the body.
 */
export function prepareMdx(body: string, steps?: TextEdit[][]): string {
  const fenced: TextEdit[] | undefined = steps ? [] : undefined;
  const marked: TextEdit[] | undefined = steps ? [] : undefined;
  const ided: TextEdit[] | undefined = steps ? [] : undefined;
  const prepared = markCustomHeadingIds(markInlineMath(fenceDisplayMath(body, fenced), marked), ided);
  if (steps) steps.push(fenced!, marked!, ided!);
  return prepared;
}

/** Parses plain Markdown (`.md` snippets; the visual editor's `.md` pages): remark-parse + remark-gfm, raw HTML kept as `html` nodes. */
export function parseMarkdown(text: string): UNode {
  return markdownProcessor.parse(text) as unknown as UNode;
}

/** Parses a snippet file: `.md` as plain Markdown (raw HTML kept for the sanitizer), anything else as MDX. */
function parseSnippet(filePath: string, source: string, variables: Record<string, string> | undefined): UNode {
  const body = prepareMdx(substituteVariables(splitFrontmatter(source, filePath).body, variables));
  if (/\.md$/i.test(filePath)) return parseMarkdown(body);
  const root = parseMdx(body, filePath);
  takeCustomHeadingIds(root);
  return root;
}

/** Plain text of an mdast subtree (text, inline code and other literal values). */
function nodeText(node: UNode): string {
  if (node.type === 'text') return node.value ?? '';
  if (node.type === 'inlineCode') return inlineMathSource(node.value ?? '') ?? node.value ?? '';
  return (node.children ?? []).map(nodeText).join('');
}

function collectLanguages(node: UNode, out: Set<string>): void {
  if (node.type === 'code') out.add(typeof node.lang === 'string' ? node.lang : '');
  for (const c of node.children ?? []) collectLanguages(c, out);
}

/** Input of {@link renderMdx}. */
export interface MdxRenderInput {
  filePath: string;
  /** page text with the frontmatter blanked and variables substituted */
  body: string;
  files: DocsFiles;
  highlighter: CodeHighlighter;
  headings: HeadingCollector;
  warnings: BuildWarning[];
  dependencies: string[];
  variables?: Record<string, string>;
  /** the `user.<field>` names the page may use (site/personalisation.ts `userFieldsOf`); absent: `name`, `plan` */
  userFields?: readonly string[];
  /** preview only: top-level blocks get `data-line` (render-page.ts `sourceLines`) */
  sourceLines?: boolean;
}

/** The conversion handlers for one page (closures over its highlighter and heading ids). */
function handlers(highlighter: CodeHighlighter, headings: HeadingCollector): Record<string, Handler> {
  const raw = (value: string): ElementContent => ({ type: 'raw', value }) as unknown as ElementContent;
  const renderNodes = (state: State, nodes: UNode[]): string =>
    toHtml({ type: 'root', children: state.all({ type: 'root', children: nodes } as unknown as MdastRoot) } as HastRoot, {
      allowDangerousHtml: true,
    });

  const jsx: Handler = (state, mdNode) => {
    const node = mdNode as unknown as MdxJsxElement;
    if (!isJsxElement(node as unknown as UNode)) return undefined;
    const name = node.name ?? '';
    const props = node.data?.quireProps ?? {};
    const children = () => renderNodes(state, node.children);
    if (/^[a-z]/.test(name)) return raw(elementHtml(name, props, children()));
    const component = node.data?.quireUnknown ? undefined : COMPONENTS.get(name);
    if (!component) return raw(children());
    return raw(
      component({ name, props, node, children, render: (nodes) => renderNodes(state, nodes), highlighter, headings }),
    );
  };

  return {
    mdxJsxFlowElement: jsx,
    mdxJsxTextElement: jsx,
    mdxFlowExpression: () => undefined,
    mdxTextExpression: () => undefined,
    mdxjsEsm: () => undefined,
    inlineCode: (state, node) => {
      const tex = inlineMathSource(String((node as unknown as UNode).value ?? ''));
      return tex === undefined
        ? defaultHandlers.inlineCode(state, node as Parameters<typeof defaultHandlers.inlineCode>[1])
        : raw(highlighter.math(tex, false));
    },
    code: (_state, node) => {
      const n = node as unknown as UNode;
      const line = n.position?.start.line;
      return raw(highlighter.highlightSync(n.value ?? '', typeof n.lang === 'string' ? n.lang : '', typeof n.meta === 'string' ? n.meta : '', { line }));
    },
    heading: (state, node) => {
      const n = node as unknown as UNode & { depth: number };
      const id = headings.heading(n.depth, nodeText(n), customHeadingId(n));
      const children = state.all(node);
      const alias = headings.aliasTarget(id);
      if (alias) children.unshift(raw(alias));
      children.push(raw(anchorHtml(id)));
      return { type: 'element', tagName: `h${n.depth}`, properties: { id }, children };
    },
    table: (state, node) => ({
      type: 'element',
      tagName: 'div',
      properties: { className: ['q-table'] },
      children: [defaultHandlers.table(state, node as Parameters<typeof defaultHandlers.table>[1])],
    }),
  };
}

/**
 * Renders an MDX page body to unsanitized HTML and its Markdown export (imports/exports removed).
 * Warnings and dependencies are appended to the input's arrays; headings fill `input.headings`.
 * @throws DocsError(file, line, column) when the page or one of its snippets cannot be parsed
 */
export async function renderMdx(input: MdxRenderInput): Promise<{ html: string; markdown: string }> {
  const { filePath, highlighter, headings } = input;
  const prepared = prepareMdx(input.body);
  const root = parseMdx(prepared, filePath);
  takeCustomHeadingIds(root);

  let markdown = prepared;
  const esm = (root.children ?? []).filter((c) => c.type === 'mdxjsEsm' && c.position?.start.offset !== undefined);
  for (const node of esm.reverse()) {
    markdown = markdown.slice(0, node.position!.start.offset) + markdown.slice(node.position!.end.offset);
  }

  // lines of the page's own top-level blocks, taken before snippets are put in (their lines are another file's)
  const topLines = input.sourceLines
    ? new Map((root.children ?? []).flatMap((n) => [[n as unknown, n.position?.start.line], [n.position as unknown, n.position?.start.line]]))
    : undefined;
  resolvePage(root, filePath, {
    files: input.files,
    warnings: input.warnings,
    dependencies: input.dependencies,
    parse: (path, text) => parseSnippet(path, text, input.variables),
    isKnown: (name) => COMPONENTS.has(name),
    ...(input.userFields ? { userFields: new Set(input.userFields) } : {}),
  });

  const langs = new Set<string>();
  collectLanguages(root, langs);
  await highlighter.loadLanguages(langs);

  const own = handlers(highlighter, headings);
  const hast = toHast(root as unknown as MdastRoot, {
    allowDangerousHtml: true,
    handlers: topLines ? lineMarkingHandlers({ ...(defaultHandlers as unknown as Record<string, Handler>), ...own }, topLines) : own,
  });
  const html = toHtml(hast, { allowDangerousHtml: true });
  return { html, markdown: unmarkCustomHeadingIds(unmarkInlineMath(markdown)).replace(/^\s*\n/, '').replace(/\n{3,}/g, '\n\n') };
}
