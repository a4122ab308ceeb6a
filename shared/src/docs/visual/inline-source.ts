/**
 * Keeps links and images of an edited block as the file wrote them: the Markdown written from the editor's
 * HTML spells every link one way (`[t](u "title")`, `<https://x>`), while the file may use `'title'` quotes,
 * a bare GFM autolink literal or an MDX-safe form. A link the writer did not change is put back byte for byte.
 */
import { inlineNodeHtml } from './editable-html';
import { blockMarkdownFromHtml } from './html-to-markdown';
import { nodeOffsets, parseSource, type Flavor } from './parse-source';
import type { UNode } from '../markdown/mdx-nodes';
import type { SourceStyle } from './types';

/** Links and images of a tree in source order (not those inside another link or image). */
function inlineTargets(node: UNode, out: UNode[] = []): UNode[] {
  if (node.type === 'link' || node.type === 'image') out.push(node);
  else for (const c of node.children ?? []) inlineTargets(c, out);
  return out;
}

/**
 * `next` (Markdown written from the edited HTML of a block whose source was `old`, both unindented with `\n`
 * line ends) with each link and image of `old` that it still holds, in the same order and meaning the same
 * (same text, URL and title), written as in `old`. Links that changed, and everything else, stay as in `next`.
 * Never throws: when `old` does not parse, `next` is returned.
 */
export function keepInlineSource(old: string, next: string, style: SourceStyle, flavor: Flavor): string {
  let parsed: ReturnType<typeof parseSource>;
  try {
    parsed = parseSource(old, flavor);
  } catch {
    return next;
  }
  let out = next;
  let cursor = 0;
  for (const node of inlineTargets(parsed.root)) {
    const at = nodeOffsets(node);
    if (!at) continue;
    const written = old.slice(parsed.origin(at[0]), parsed.origin(at[1]));
    const regenerated = blockMarkdownFromHtml(inlineNodeHtml(node), 'paragraph', style, { flavor });
    const found = out.indexOf(regenerated, cursor);
    if (found < 0 || regenerated === '') continue;
    out = out.slice(0, found) + written + out.slice(found + regenerated.length);
    cursor = found + written.length;
  }
  return out;
}
