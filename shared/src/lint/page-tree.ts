/**
 * A page's syntax tree as the docs engine parses it when it renders the page (render-page.ts), so
 * that the linter and the renderer never disagree on what parses: the front matter is split off and
 * blanked line for line (frontmatter.ts `splitFrontmatter`), and an MDX body has the site's `{{name}}`
 * variables put in (`substituteVariables`; names the linter was not given stay as written), is prepared
 * (mdx.ts `prepareMdx`: `$$` blocks fenced, inline math and `<Latex>` text marked) and parsed by the renderer's
 * own `parseMdx` (remark-parse, remark-mdx, remark-gfm). The preparation moves text; every position of
 * the tree is traced back to the page as written (text-edits.ts), so findings point into the file.
 *
 * A page the renderer refuses (front matter that is not YAML or never closes, MDX that does not
 * parse) gives one `mdx/syntax` finding with the renderer's reason, at the place in the file.
 */
import { splitFrontmatter, substituteVariables } from '../docs/markdown/frontmatter';
import { parseMdx, prepareMdx } from '../docs/markdown/mdx';
import type { UNode } from '../docs/markdown/mdx-nodes';
import { originOffsets, type TextEdit } from '../docs/markdown/text-edits';
import { DocsError } from '../docs/types';
import { lineStarts, positionAt } from './text-positions';
import type { LintFinding } from './types';

/** What parsing a page gave: its MDX tree (none for `.md` pages) or the finding that it does not parse. */
export type ParsedPage = { tree: UNode | undefined; syntax?: undefined } | { tree?: undefined; syntax: LintFinding };

/** The replacement that turns `text` into `body` when only a prefix differs (front matter blanked, BOM dropped). */
function prefixEdits(text: string, body: string): TextEdit[] {
  if (text === body) return [];
  const max = Math.min(text.length, body.length);
  let same = 0;
  while (same < max && text.charCodeAt(text.length - 1 - same) === body.charCodeAt(body.length - 1 - same)) same++;
  return [{ from: 0, to: text.length - same, text: body.slice(0, body.length - same) }];
}

/** A `mdx/syntax` finding: the renderer's reason without its file prefix, at `line`:`column` of the page. */
function syntaxFinding(reason: string, line: number, column: number): LintFinding {
  return { ruleId: 'mdx/syntax', severity: 'error', message: `The page does not parse: ${reason}`, line, column, endLine: line, endColumn: column + 1 };
}

/** The reason of a renderer error, without the `file:line:column: ` and `cannot parse MDX: ` it starts with. */
function reasonOf(err: DocsError, filePath: string): string {
  const message = err.message.startsWith(filePath) ? err.message.slice(filePath.length).replace(/^(?::\d+)*: /, '') : err.message;
  return message.replace(/^cannot parse MDX: /, '');
}

/**
 * Parses `text`, a page whose file is `path` (relative to the docs root; `.md` is Markdown, which the
 * renderer never refuses, so only its front matter is checked; anything else is MDX), with the site's
 * `variables` (SiteConfig.variables) when known.
 * @returns the tree with positions (line, column, offset) in `text`, or the page's `mdx/syntax` finding
 * @throws what is not a refusal of the page (a bug), as it is
 */
export function parsePage(text: string, path: string, variables?: Record<string, string>): ParsedPage {
  let body: string;
  try {
    body = splitFrontmatter(text, path).body;
  } catch (err) {
    if (!(err instanceof DocsError)) throw err;
    return { syntax: syntaxFinding(reasonOf(err, path), err.line ?? 1, err.column ?? 1) };
  }
  if (path.endsWith('.md')) return { tree: undefined };

  const substituted: TextEdit[] = [];
  const steps: TextEdit[][] = [prefixEdits(text, body), substituted];
  const prepared = prepareMdx(substituteVariables(body, variables, substituted), steps);
  const back = steps.map(originOffsets).reverse();
  const toText = (offset: number) => back.reduce((o, f) => f(o), offset);
  const starts = lineStarts(text);
  let tree: UNode;
  try {
    tree = parseMdx(prepared, path);
  } catch (err) {
    if (!(err instanceof DocsError)) throw err;
    // The parser's places are in the prepared text: each is traced back to the page.
    const preparedStarts = lineStarts(prepared);
    const place = (line: number, column: number) => positionAt(starts, toText((preparedStarts[line - 1] ?? prepared.length) + column - 1));
    const reason = reasonOf(err, path).replace(/\((\d+):(\d+)(?:-(\d+):(\d+))?\)/g, (m, l1: string, c1: string, l2?: string, c2?: string) => {
      const a = place(Number(l1), Number(c1));
      const b = l2 && c2 ? place(Number(l2), Number(c2)) : undefined;
      return `(${a.line}:${a.column}${b ? `-${b.line}:${b.column}` : ''})`;
    });
    const at = err.line ? place(err.line, err.column ?? 1) : { line: 1, column: 1 };
    return { syntax: syntaxFinding(reason, at.line, at.column) };
  }
  traceTree(tree, (offset) => {
    const o = toText(offset);
    return { ...positionAt(starts, o), offset: o };
  });
  return { tree };
}

type Point = { line: number; column: number; offset?: number };

/** Replaces the positions of `node`, its children and its JSX attributes by their places in the page. */
function traceTree(node: UNode, place: (offset: number) => Point): void {
  const position = node.position;
  if (position?.start.offset !== undefined && position.end.offset !== undefined) {
    node.position = { start: place(position.start.offset), end: place(position.end.offset) };
  }
  for (const attribute of (node.attributes as UNode[] | undefined) ?? []) traceTree(attribute, place);
  for (const child of node.children ?? []) traceTree(child, place);
}

/** Node types of an MDX tree whose text is not Markdown: `{expressions}` (comments among them), imports and exports. */
const OPAQUE_TYPES = new Set(['mdxFlowExpression', 'mdxTextExpression', 'mdxjsEsm']);

/**
 * The ranges of the page (`[from, to)`, UTF-16 offsets of `parsePage`'s traced positions) that hold
 * MDX expressions, imports or exports, in document order; none for a `.md` page (no tree).
 */
export function opaqueRanges(tree: UNode | undefined): Array<readonly [number, number]> {
  const out: Array<readonly [number, number]> = [];
  const visit = (node: UNode) => {
    const { start, end } = node.position ?? {};
    if (OPAQUE_TYPES.has(node.type) && start?.offset !== undefined && end?.offset !== undefined) {
      out.push([start.offset, end.offset]);
      return;
    }
    for (const child of node.children ?? []) visit(child);
  };
  if (tree) visit(tree);
  return out;
}
