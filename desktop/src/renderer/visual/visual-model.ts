import type { SourceStyle, VisualBlock, VisualDocument } from '@quire/shared/docs/visual/index';
import { lineStarts, positionAt } from '@quire/shared/lint/text-positions';

/**
 * Pure helpers of the visual editor over the engine's block tree (shared/src/docs/visual): finding
 * a block and its enclosing components, placing lint findings on blocks, and the Markdown each entry
 * of the "Insert block" menu inserts in the file's own style.
 */

/** `block` with its enclosing blocks, outermost first; null when no block has `id`. */
export function blockPath(blocks: readonly VisualBlock[], id: string): VisualBlock[] | null {
  for (const b of blocks) {
    if (b.id === id) return [b];
    const inner = b.component ? blockPath(b.component.children, id) : null;
    if (inner) return [b, ...inner];
  }
  return null;
}

/** The block with `id` anywhere in the tree, or null. */
export function findBlock(doc: VisualDocument, id: string): VisualBlock | null {
  return blockPath(doc.blocks, id)?.at(-1) ?? null;
}

/** The innermost component block that is or encloses the block `id` (whose props the side form edits), or null. */
export function componentOf(doc: VisualDocument, id: string): VisualBlock | null {
  const path = blockPath(doc.blocks, id) ?? [];
  for (let i = path.length - 1; i >= 0; i--) if (path[i]!.kind === 'component') return path[i]!;
  return null;
}

/**
 * Places items having a 1-based `line` on the innermost block whose source spans that line; an item
 * on no block's line (blank lines, frontmatter) goes to the nearest block before it, or the first block.
 * Returns the items by block id.
 */
export function itemsByBlock<T extends { line: number }>(text: string, blocks: readonly VisualBlock[], items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  if (blocks.length === 0) return out;
  const starts = lineStarts(text);
  const spans: { id: string; first: number; last: number; depth: number }[] = [];
  const walk = (list: readonly VisualBlock[], depth: number) => {
    for (const b of list) {
      spans.push({ id: b.id, first: positionAt(starts, b.from).line, last: positionAt(starts, Math.max(b.from, b.to - 1)).line, depth });
      if (b.component) walk(b.component.children, depth + 1);
    }
  };
  walk(blocks, 0);
  for (const item of items) {
    let best: (typeof spans)[number] | undefined;
    for (const s of spans) if (s.first <= item.line && item.line <= s.last && (!best || s.depth > best.depth)) best = s;
    if (!best) {
      for (const s of spans) if (s.depth === 0 && s.first <= item.line) best = s;
      best ??= spans[0]!;
    }
    const list = out.get(best.id) ?? [];
    list.push(item);
    out.set(best.id, list);
  }
  return out;
}

/** An entry of the "Insert block" (slash) menu. */
export interface InsertChoice {
  label: string;
  /** the Markdown inserted, in the file's style */
  markdown(style: SourceStyle): string;
}

const callout = (name: string) => (s: SourceStyle) => [`<${name}>`, `${name} text.`, `</${name}>`].join(s.eol);

/** The "Insert block" menu in its order (Mintlify components as the site renders them). */
export const INSERT_CHOICES: readonly InsertChoice[] = [
  { label: 'Paragraph', markdown: () => 'New paragraph.' },
  { label: 'Heading', markdown: () => '## Heading' },
  { label: 'List', markdown: (s) => `${s.bullet} Item` },
  { label: 'Note', markdown: callout('Note') },
  { label: 'Warning', markdown: callout('Warning') },
  { label: 'Tip', markdown: callout('Tip') },
  { label: 'Info', markdown: callout('Info') },
  { label: 'Card', markdown: (s) => ['<Card title="Card title">', 'Card text.', '</Card>'].join(s.eol) },
  { label: 'Code block', markdown: (s) => [s.fence.repeat(s.fenceLength), 'code', s.fence.repeat(s.fenceLength)].join(s.eol) },
  { label: 'Divider', markdown: () => '---' },
];

/** The insert menu's "Image" entry: it opens the image file chooser instead of inserting Markdown (image-insert.ts). */
export const IMAGE_CHOICE = { label: 'Image', image: true } as const;

/** An entry of the insert menu: Markdown to insert, or the image file chooser. */
export type MenuChoice = InsertChoice | typeof IMAGE_CHOICE;

/** The insert menu in its order: {@link INSERT_CHOICES}, then "Image". */
export const MENU_CHOICES: readonly MenuChoice[] = [...INSERT_CHOICES, IMAGE_CHOICE];

/** Props the side form offers for a component even when the file does not set them yet (Mintlify's documented props). */
export const KNOWN_PROPS: Readonly<Record<string, readonly string[]>> = {
  Card: ['title', 'href', 'icon'],
  Tab: ['title'],
  Step: ['title'],
  Accordion: ['title'],
  Expandable: ['title'],
  ParamField: ['type'],
  ResponseField: ['name', 'type'],
  CardGroup: ['cols'],
  Frame: ['caption'],
};

/** A prop's name as a form label: `title` → "Title", `defaultOpen` → "Default open". */
export function propLabel(name: string): string {
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words[0]!.toUpperCase() + words.slice(1);
}
