import type { NavNode } from '../types';
import { walkPages } from './walk';

/**
 * The ancestors (divisions and groups, outermost first) of the first navigation entry for
 * `pagePath`, not including the page itself: breadcrumbs, and which tab / anchor / dropdown /
 * version is active. A group whose `root` is the page counts as an ancestor of it.
 * Returns `[]` when the page sits at the top level or is not in the navigation (a hidden page).
 * @param pagePath page path without extension or leading slash (`guides/setup`); a leading `/` is tolerated
 */
export function findTrail(nav: NavNode[], pagePath: string): NavNode[] {
  const wanted = pagePath.replace(/^\/+/, '');
  for (const visit of walkPages(nav)) {
    if (visit.node.path === wanted && wanted !== '') return visit.ancestors;
  }
  return [];
}
