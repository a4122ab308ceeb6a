/**
 * Whether two Markdown texts mean the same: equal syntax trees once positions are dropped and runs of
 * white space in text are taken as one space (as HTML renders them). Used to tell a visual edit that
 * changed nothing from one that did.
 */
import type { UNode } from '../markdown/mdx-nodes';
import { parseSource } from './parse-source';

function strip(node: UNode): unknown {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'position' || k === 'data') continue;
    if (k === 'children') out[k] = (v as UNode[]).map(strip);
    else if (k === 'value' && typeof v === 'string' && node.type === 'text') out[k] = v.replace(/\s+/g, ' ');
    else out[k] = v;
  }
  return out;
}

/** A key equal for Markdown texts with the same meaning (undefined when the text does not parse). */
export function semanticKey(markdown: string): string | undefined {
  try {
    const root = parseSource(markdown.replace(/\r\n/g, '\n').trim()).root;
    return JSON.stringify(strip(root));
  } catch {
    return undefined;
  }
}

/** True when both texts parse and mean the same ({@link semanticKey}). */
export function sameMarkdown(a: string, b: string): boolean {
  const ka = semanticKey(a);
  return ka !== undefined && ka === semanticKey(b);
}
