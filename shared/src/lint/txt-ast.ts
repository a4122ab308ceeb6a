/**
 * An MDX page's tree (page-tree.ts: the renderer's parse, positions in the page) as textlint's TxtAST
 * (textlint.org/docs/txtnode; type names as @textlint/ast-node-types spells them), node types mapped the way textlint's Markdown and MDX plugins map them
 * (@textlint/markdown-to-ast, textlint-plugin-mdx): `text` → Str, `paragraph` → Paragraph, `heading` →
 * Header, `inlineCode` (inline math too) → Code, `code` (display math too) → CodeBlock, and so on; a JSX
 * element written as a block → Html, inside a line → Paragraph, both keeping their children (the text
 * of a `<Note>` is prose); an expression or ESM → Code (inline) or CodeBlock, or Comment when it is only
 * a comment. Types without a TxtAST name keep theirs (`table`: Table, `mdxJsxAttribute`...).
 */
import type { TextlintPluginPreProcessResult } from '@textlint/types';
import type { UNode } from '../docs/markdown/mdx-nodes';

const TYPES: Record<string, string> = {
  root: 'Document',
  paragraph: 'Paragraph',
  blockquote: 'BlockQuote',
  listItem: 'ListItem',
  list: 'List',
  heading: 'Header',
  code: 'CodeBlock',
  thematicBreak: 'HorizontalRule',
  text: 'Str',
  break: 'Break',
  emphasis: 'Emphasis',
  strong: 'Strong',
  html: 'Html',
  link: 'Link',
  image: 'Image',
  inlineCode: 'Code',
  delete: 'Delete',
  table: 'Table',
  tableRow: 'TableRow',
  tableCell: 'TableCell',
  linkReference: 'LinkReference',
  imageReference: 'ImageReference',
  footnoteReference: 'FootnoteReference',
  definition: 'Definition',
  mdxJsxFlowElement: 'Html',
  mdxJsxTextElement: 'Paragraph',
};

const MDX_CODE = new Set(['mdxjsEsm', 'mdxFlowExpression', 'mdxTextExpression']);
/** Fields of MDX nodes that are not text (the plugin drops them too). */
const MDX_DROPPED = new Set(['name', 'attributes']);

type TxtOut = Record<string, unknown> & { type: string };
/** A TxtAST document (what a textlint plugin's `preProcess` may return). */
export type TxtDocument = Exclude<TextlintPluginPreProcessResult, { text: string }>;

/**
 * The TxtAST of `root`, whose positions are offsets and lines/columns in `text`. textlint reads pages
 * without their byte order mark: with one (`bom` 1), ranges and first-line columns move back by one.
 */
export function toTxtAst(root: UNode, text: string, bom: 0 | 1): TxtDocument {
  const source = bom ? text.slice(1) : text;
  const convert = (node: UNode, at: number): TxtOut => {
    const mdx = /^mdx/.test(node.type);
    let type = TYPES[node.type] ?? node.type;
    const out: TxtOut = { type };
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type' || key === 'position' || key === 'data' || key === 'children' || (mdx && MDX_DROPPED.has(key))) continue;
      out[key] = value;
    }
    if (MDX_CODE.has(node.type)) {
      const value = String(node.value ?? '');
      if (/^\/\*[^]*\*\/$/.test(value)) {
        type = 'Comment';
        out.value = value.replace(/^\/\*/, '').replace(/\*\/$/, '');
      } else type = node.type === 'mdxTextExpression' ? 'Code' : 'CodeBlock';
      out.type = type;
    }
    const p = node.position;
    const start = Math.max(0, (p?.start.offset ?? at + bom) - bom);
    const end = Math.max(start, (p?.end.offset ?? at + bom) - bom);
    const column = (point: { line: number; column: number } | undefined, offset: number) =>
      point ? Math.max(0, point.column - 1 - (point.line === 1 ? bom : 0)) : offset;
    out.range = [start, end];
    out.loc = {
      start: { line: p?.start.line ?? 1, column: column(p?.start, start) },
      end: { line: p?.end.line ?? 1, column: column(p?.end, end) },
    };
    out.raw = source.slice(start, end);
    if (node.children) out.children = node.children.map((c) => convert(c, start));
    return out;
  };
  return convert(root, 0) as unknown as TxtDocument;
}
