/**
 * The syntax-tree node each block was parsed from, kept beside the block (not on it, so blocks stay plain
 * data the UI can copy and compare) to spare a second parse when the block's HTML is asked for.
 */
import type { UNode } from '../markdown/mdx-nodes';
import type { VisualBlock } from './types';

const nodes = new WeakMap<VisualBlock, UNode>();

/** Remembers the node `block` was made from. */
export function rememberNode(block: VisualBlock, node: UNode): VisualBlock {
  nodes.set(block, node);
  return block;
}

/** The node `block` was made from by parseVisualDocument, if this very object came from it. */
export function nodeOfBlock(block: object): UNode | undefined {
  return nodes.get(block as VisualBlock);
}
