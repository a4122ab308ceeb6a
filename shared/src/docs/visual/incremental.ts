/**
 * Re-reading a page after one edit without parsing all of it: only the top-level blocks around the edit are
 * parsed again (with one neighbour on each side, so that blocks merging or splitting are seen), the blocks
 * after them move by the edit's length change. Falls back to a whole parse whenever a local one could read
 * differently: edits in or next to the frontmatter, pages with link reference definitions or footnotes, a
 * region not set off by blank lines, or a region that does not parse alone.
 */
import type { TextEdit } from '../markdown/text-edits';
import { nodeOfBlock, rememberNode } from './block-nodes';
import { parseVisualDocument } from './parse';
import { flavorOf } from './parse-source';
import { applyTextEdits } from './splice';
import type { VisualBlock, VisualDocument } from './types';

/** Reasons that make blocks depend on other blocks (references resolve across the page). */
const NON_LOCAL = new Set(['reference', 'footnote', 'definition', 'unparsable']);
const BLANK_LINE = /\n[ \t]*\r?\n/;

/** `block` (and its children) moved by `delta` characters and reading `source`; the parsed node stays attached. */
function shifted(block: VisualBlock, delta: number, source: string): VisualBlock {
  const from = block.from + delta;
  const out: VisualBlock = { ...block, id: `b${from}`, from, to: block.to + delta, source: source.slice(from, block.to + delta) };
  if (block.component) {
    out.component = {
      ...block.component,
      props: block.component.props.map((p) => ({ ...p, from: p.from + delta, to: p.to + delta })),
      children: block.component.children.map((c) => shifted(c, delta, source)),
    };
  }
  const node = nodeOfBlock(block);
  return node ? rememberNode(out, node) : out;
}

function lineStart(source: string, offset: number): number {
  return source.lastIndexOf('\n', offset - 1) + 1;
}

/**
 * The page after `edit` (offsets in `oldSource`) as {@link parseVisualDocument} would read it, parsing only the
 * blocks around the edit when that gives the same result (see the module comment). `doc` must be the
 * document of `oldSource`; it is not changed.
 */
export function updateVisualDocument(doc: VisualDocument, oldSource: string, edit: TextEdit, filePath?: string): VisualDocument {
  const source = applyTextEdits(oldSource, [edit]);
  const full = () => parseVisualDocument(source, filePath);
  const blocks = doc.blocks;
  if (flavorOf(filePath) !== doc.flavor || blocks.length === 0) return full();
  if (doc.frontmatter && edit.from <= doc.frontmatter.to) return full();
  if (blocks.some((b) => b.kind === 'readonly' && NON_LOCAL.has(b.readonlyReason ?? ''))) return full();
  const touched = blocks.map((b, i) => (b.from <= edit.to && b.to >= edit.from ? i : -1)).filter((i) => i >= 0);
  let first = touched.length ? touched[0]! : blocks.findIndex((b) => b.from >= edit.to);
  let last = touched.length ? touched[touched.length - 1]! : first;
  if (first < 0) first = last = blocks.length - 1;
  first = Math.max(0, first - 1);
  last = Math.min(blocks.length - 1, last + 1);
  // grow until the region is set off by blank lines from the blocks outside it
  while (first > 0 && !BLANK_LINE.test(oldSource.slice(blocks[first - 1]!.to, blocks[first]!.from))) first--;
  while (last < blocks.length - 1 && !BLANK_LINE.test(oldSource.slice(blocks[last]!.to, blocks[last + 1]!.from))) last++;
  const delta = edit.text.length - (edit.to - edit.from);
  const from = first === 0 ? (doc.frontmatter?.to ?? 0) : lineStart(oldSource, blocks[first]!.from);
  const oldTo = last === blocks.length - 1 ? oldSource.length : blocks[last]!.to;
  if (edit.from < from || edit.to > oldTo) return full();
  if (first === 0 && !doc.frontmatter && oldSource.startsWith('\uFEFF')) return full();
  const chunk = source.slice(from, oldTo + delta);
  // a region starting with `---` would be read as frontmatter
  if (/^---[ \t]*\r?\n/.test(chunk)) return full();
  const local = parseVisualDocument(chunk, filePath);
  if (local.frontmatter || local.blocks.some((b) => b.kind === 'readonly' && NON_LOCAL.has(b.readonlyReason ?? ''))) return full();
  return {
    frontmatter: doc.frontmatter,
    blocks: [
      ...blocks.slice(0, first),
      ...local.blocks.map((b) => shifted(b, from, source)),
      ...blocks.slice(last + 1).map((b) => shifted(b, delta, source)),
    ],
    style: doc.style,
    flavor: doc.flavor,
  };
}
