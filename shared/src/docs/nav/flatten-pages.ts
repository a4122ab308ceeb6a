import type { NavNode, NavPage } from '../types';
import { isHiddenVisit, walkPages } from './walk';

/**
 * The pages of a navigation tree in reading order (the sidebar read top to bottom, division after
 * division), skipping hidden pages and everything under a hidden group or division.
 * A group's `root` page comes before the group's children. A page listed twice appears twice
 * (use {@link prevNext} for neighbours; it keeps the first occurrence).
 * OpenAPI operation entries whose `path` the builder has not filled yet (`''`) are included.
 */
export function flattenPages(nav: NavNode[]): NavPage[] {
  const out: NavPage[] = [];
  for (const visit of walkPages(nav)) if (!isHiddenVisit(visit)) out.push(visit.node);
  return out;
}
