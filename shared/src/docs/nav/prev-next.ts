import type { NavNode, NavPage } from '../types';
import { findTrail } from './find-trail';
import { flattenPages } from './flatten-pages';

/** The previous and next pages of a page, for the links at the bottom of it. */
export interface PrevNext {
  prev?: NavPage;
  next?: NavPage;
}

/**
 * Neighbours of `pagePath` in reading order, within the sidebar it belongs to: the pages under
 * its innermost division (tab, anchor, dropdown, version...), or the whole navigation when it
 * has none, so that pagination never jumps into another tab or version. Hidden pages, OpenAPI
 * entries without a path yet, and repeated entries (first occurrence wins) are skipped.
 * Returns `{}` for a page that is not in the navigation.
 */
export function prevNext(nav: NavNode[], pagePath: string): PrevNext {
  const wanted = pagePath.replace(/^\/+/, '');
  const trail = findTrail(nav, wanted);
  const division = [...trail].reverse().find((n) => n.type === 'division');
  const scope = division && division.type === 'division' ? division.children : nav;
  const seen = new Set<string>();
  const pages = flattenPages(scope).filter((p) => {
    if (p.path === '' || seen.has(p.path)) return false;
    seen.add(p.path);
    return true;
  });
  const i = pages.findIndex((p) => p.path === wanted);
  if (i < 0) return {};
  const out: PrevNext = {};
  if (i > 0) out.prev = pages[i - 1];
  if (i < pages.length - 1) out.next = pages[i + 1];
  return out;
}
