import type { NavNode, NavPage } from '../types';

/** One node met while walking a navigation tree, with its ancestors from the top (divisions and groups). */
export interface NavVisit {
  node: NavNode;
  /** ancestors, outermost first; empty for top-level nodes */
  ancestors: NavNode[];
}

/** The children of a node: divisions and groups have some, pages and links none. */
export function childrenOf(node: NavNode): NavNode[] {
  return node.type === 'division' || node.type === 'group' ? node.children : [];
}

/** True when the node or one of its ancestors is hidden (`hidden: true` on a page, group or division). */
export function isHiddenVisit(visit: NavVisit): boolean {
  return [...visit.ancestors, visit.node].some((n) => 'hidden' in n && n.hidden === true);
}

/**
 * Every node of the tree in reading order (depth first, parents before children).
 * A group's `root` page is yielded as a synthetic {@link NavPage} right after the group itself,
 * with the group among its ancestors (it counts as the group's first page).
 */
export function* walkNav(nav: NavNode[], ancestors: NavNode[] = []): Generator<NavVisit> {
  for (const node of nav) {
    yield { node, ancestors };
    const inner = [...ancestors, node];
    if (node.type === 'group' && node.root) {
      const rootPage: NavPage = { type: 'page', path: node.root, title: node.title || undefined };
      if (node.hidden) rootPage.hidden = true;
      yield { node: rootPage, ancestors: inner };
    }
    yield* walkNav(childrenOf(node), inner);
  }
}

/** Every page visit of the tree (including hidden ones and group roots), in reading order. */
export function* walkPages(nav: NavNode[]): Generator<NavVisit & { node: NavPage }> {
  for (const visit of walkNav(nav)) {
    if (visit.node.type === 'page') yield visit as NavVisit & { node: NavPage };
  }
}
