/**
 * Writing the HTML of an edited text block back into the file: HTML → Markdown in the file's style, the
 * block's unchanged start and end kept as written (layout-merge.ts), unchanged links too (inline-source.ts), spliced in by position (splice.ts).
 */
import type { TextEdit } from '../markdown/text-edits';
import { blockEditableHtml, dedentBlock, sameEditableHtml } from './editable-html';
import { blockMarkdownFromHtml } from './html-to-markdown';
import { keepInlineSource } from './inline-source';
import { mergeKeepingLayout } from './layout-merge';
import { semanticKey } from './semantic';
import { removeBlock, replaceBlock } from './splice';
import { inferSourceStyle } from './style';
import { TEXT_BLOCK_KINDS, type SourceStyle, type VisualBlock } from './types';

/**
 * The edit that writes `html` (the block's edited contenteditable HTML, blockEditableHtml's subset) into
 * `block`'s place, or null when it shows what the block already shows (same HTML once parsed, or Markdown
 * of the same meaning): switching modes without an edit changes no byte. Only `[block.from, block.to)` changes,
 * except when the HTML is empty: then the block is removed with its separating blank lines (splice.ts `removeBlock`).
 * @param style the file's style (inferSourceStyle(source) when absent; pass it to save a parse per keystroke)
 * @throws Error when `block` is not a text block (paragraph, heading, list, table, blockquote)
 */
export function replaceBlockText(source: string, block: VisualBlock, html: string, style?: SourceStyle): TextEdit | null {
  if (!TEXT_BLOCK_KINDS.has(block.kind)) throw new Error(`a ${block.kind} block is not edited as text`);
  if (sameEditableHtml(html, blockEditableHtml(block))) return null;
  const old = dedentBlock(block);
  // browsers write typed spaces at the end of a line as U+00A0; the file had none, so they are spaces
  const typed = /\u00a0|&nbsp;|&#160;|&#xa0;/i.test(old) ? html : html.replace(/&nbsp;|&#160;|&#xa0;|\u00a0/gi, ' ');
  const flavor = block.flavor ?? 'mdx';
  const fileStyle = style ?? inferSourceStyle(source, flavor === 'md' ? 'page.md' : undefined);
  // links and images the writer did not touch keep their own syntax (title quotes, autolinks)
  const next = keepInlineSource(old, blockMarkdownFromHtml(typed, block.kind, fileStyle, { depth: block.depth, flavor }), fileStyle, flavor);
  if (next === old) return null;
  if (next === '') return removeBlock(source, block);
  const oldKey = semanticKey(old, flavor);
  const nextKey = semanticKey(next, flavor);
  if (oldKey !== undefined && oldKey === nextKey) return null;
  // the old layout where it still says the same; else the new text as written from HTML
  const candidates = [mergeKeepingLayout(old, next), mergeKeepingLayout(old, next, true)];
  const merged = candidates.find((c) => c === next || semanticKey(c, flavor) === nextKey) ?? next;
  const edit = replaceBlock(source, block, merged);
  return edit.from === edit.to && edit.text === '' ? null : edit;
}
