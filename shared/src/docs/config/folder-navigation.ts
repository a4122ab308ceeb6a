import type { DocsFiles, NavGroup, NavNode, NavPage } from '../types';
import { pagePathOf } from '../nav/check-navigation';
import { listPageFiles } from './page-files';
import { titleFromPath } from './title-from-path';

/** Navigation made from the folders when there is no config, and the site name. */
export interface FolderNavigation {
  /** first h1 of the root index (or README), else 'Documentation' */
  name: string;
  navigation: NavNode[];
}

/** Page names that open their folder, in this order; the rest follow alphabetically. */
const LEADING_PAGES = ['index', 'introduction', 'readme'];

interface Folder {
  pages: string[];
  folders: Map<string, Folder>;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function rank(pagePath: string): number {
  const i = LEADING_PAGES.indexOf(pagePath.slice(pagePath.lastIndexOf('/') + 1).toLowerCase());
  return i < 0 ? LEADING_PAGES.length : i;
}

function pageNodes(pages: string[]): NavPage[] {
  return [...pages]
    .sort((a, b) => rank(a) - rank(b) || collator.compare(a, b))
    .map((path) => ({ type: 'page', path }));
}

function folderGroups(folder: Folder): NavGroup[] {
  return [...folder.folders.entries()]
    .sort(([a], [b]) => collator.compare(a, b))
    .map(([name, sub]) => ({ type: 'group', title: titleFromPath(name), children: [...pageNodes(sub.pages), ...folderGroups(sub)] }));
}

/** The text of the first `# ` heading outside frontmatter and code fences, if any. */
export function firstHeading(markdown: string): string | undefined {
  const text = markdown.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '');
  let fence: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1]![0];
      else if (f[1]![0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const h = /^#[ \t]+(.+?)[ \t#]*$/.exec(line);
    if (h) return h[1]!.trim();
  }
  return undefined;
}

/**
 * Navigation for a docs root without docs.json or mint.json (decisions.md section 5: "every
 * Markdown file is a page and the navigation follows the folders"): the root's pages first in an
 * untitled group, then one group per folder (titled from the folder name, nested for subfolders).
 * In each folder `index`, `introduction` and `README` come first, then pages in natural order.
 */
export function folderNavigation(files: DocsFiles): FolderNavigation {
  const root: Folder = { pages: [], folders: new Map() };
  for (const file of listPageFiles(files)) {
    const pagePath = pagePathOf(file)!;
    const parts = pagePath.split('/');
    let folder = root;
    for (const dir of parts.slice(0, -1)) {
      let sub = folder.folders.get(dir);
      if (!sub) folder.folders.set(dir, (sub = { pages: [], folders: new Map() }));
      folder = sub;
    }
    folder.pages.push(pagePath);
  }
  const navigation: NavNode[] = [];
  if (root.pages.length) navigation.push({ type: 'group', title: '', children: pageNodes(root.pages) });
  navigation.push(...folderGroups(root));
  const indexText = ['index.mdx', 'index.md', 'README.md', 'readme.md'].map((f) => files.read(f)).find((t) => t !== undefined);
  return { name: (indexText !== undefined && firstHeading(indexText)) || 'Documentation', navigation };
}
