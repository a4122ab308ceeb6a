import type { NavNode, NavPage } from '../types';
import { titleFromPath } from '../config/title-from-path';

/** What the builder knows about a page after rendering it (frontmatter and OpenAPI operation). */
export interface PageLabel {
  title: string;
  sidebarTitle?: string;
  /** HTTP method of an OpenAPI page, shown as a badge */
  method?: string;
  /** frontmatter `icon` */
  icon?: string;
  /** frontmatter `hidden: true` takes the page out of the sidebar */
  hidden?: boolean;
}

/**
 * A copy of the navigation with sidebar labels filled in (the input is not modified):
 * `title` = `sidebarTitle ?? title` of the page's entry in `labels`; pages missing from `labels`
 * keep their title or get {@link titleFromPath}. `method`, `icon` (unless the entry sets one) and
 * `hidden` are copied when given. OpenAPI entries with no path yet are left as they are.
 * @param labels page path (`guides/setup`) → label
 */
export function fillTitles(nav: NavNode[], labels: Map<string, PageLabel>): NavNode[] {
  return nav.map((node) => fillNode(node, labels));
}

function fillNode(node: NavNode, labels: Map<string, PageLabel>): NavNode {
  if (node.type === 'division' || node.type === 'group') return { ...node, children: fillTitles(node.children, labels) };
  if (node.type !== 'page' || node.path === '') return node;
  const label = labels.get(node.path);
  const page: NavPage = { ...node };
  if (!label) {
    page.title ??= titleFromPath(node.path);
    return page;
  }
  page.title = label.sidebarTitle || label.title || page.title || titleFromPath(node.path);
  if (label.method) page.method = label.method;
  if (label.icon && !page.icon) page.icon = label.icon;
  if (label.hidden) page.hidden = true;
  return page;
}
