/**
 * Whether two Markdown texts mean the same: equal syntax trees once positions are dropped and runs of
 * white space in text are taken as one space (as HTML renders them). Used to tell a visual edit that
 * changed nothing from one that did.
 */
import type { UNode } from '../markdown/mdx-nodes';
import { parseSource, type Flavor } from './parse-source';

/**
 * A list renders loose (its items' text in `<p>`) when it or any item is spread (mdast-util-to-hast
 * `listLoose`); items' own `spread` changes nothing else in HTML.
 */
function loose(list: UNode): boolean {
  return !!list.spread || (list.children ?? []).some((c) => !!c.spread);
}

/** White space next to a hard break shows as nothing (HTML collapses it at a `<br>`). */
function trimAroundBreaks(children: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  children.forEach((c, i) => {
    if (c.type !== 'text' || typeof c.value !== 'string') return;
    if (children[i + 1]?.type === 'break') c.value = c.value.trimEnd();
    if (children[i - 1]?.type === 'break') c.value = (c.value as string).trimStart();
  });
  return children.filter((c) => !(c.type === 'text' && c.value === ''));
}

function strip(node: UNode): unknown {
  const out: Record<string, unknown> = {};
  if (node.type === 'list') out.loose = loose(node);
  for (const [k, v] of Object.entries(node)) {
    if (k === 'position' || k === 'data' || k === 'spread') continue;
    if (k === 'alt' && typeof v === 'string') out[k] = v.replace(/\s+/g, ' ');
    else if (k === 'children') out[k] = trimAroundBreaks((v as UNode[]).map(strip) as Array<Record<string, unknown>>);
    else if (k === 'value' && typeof v === 'string' && node.type === 'text') out[k] = v.replace(/\s+/g, ' ');
    // CommonMark 0.31 section 6.1: line endings in code spans are read as spaces
    else if (k === 'value' && typeof v === 'string' && node.type === 'inlineCode') out[k] = v.replace(/\r?\n/g, ' ');
    else out[k] = v;
  }
  return out;
}

/** A key equal for Markdown texts with the same meaning (undefined when the text does not parse). */
export function semanticKey(markdown: string, flavor: Flavor = 'mdx'): string | undefined {
  try {
    const root = parseSource(markdown.replace(/\r\n/g, '\n').trim(), flavor).root;
    return JSON.stringify(strip(root));
  } catch {
    return undefined;
  }
}

/** True when both texts parse and mean the same ({@link semanticKey}). */
export function sameMarkdown(a: string, b: string, flavor: Flavor = 'mdx'): boolean {
  const ka = semanticKey(a, flavor);
  return ka !== undefined && ka === semanticKey(b, flavor);
}
