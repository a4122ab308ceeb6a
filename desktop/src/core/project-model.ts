import { CONFIG_FILES, firstHeading, listPageFiles, loadSiteConfig } from '@quire/shared/docs/config/index';
import { memoryFiles } from '@quire/shared/docs/files';
import { splitFrontmatter } from '@quire/shared/docs/markdown/index';
import { fillTitles, pagePathOf, type PageLabel } from '@quire/shared/docs/nav/index';
import type { DocsFiles, NavNode, SiteConfig } from '@quire/shared/docs/types';

/**
 * A project as the docs engine sees it, built from in-memory files (the workspace's local text):
 * the docs root, the site config and its navigation with page titles filled in, the same way the
 * builder does (server/src/builder/load-project.ts, pipeline.ts `fillTitles`).
 */
export interface ProjectModel {
  /** folder of docs.json/mint.json inside the repository ('' = root), see {@link findDocsRootIn} */
  docsRoot: string;
  /** files of the docs root, keyed by path relative to it */
  files: DocsFiles;
  config: SiteConfig;
  nav: NavNode[];
  /** page files (relative to the docs root) */
  pageFiles: string[];
  /** page path (`guides/setup`) → label (frontmatter title or first heading / sidebarTitle) */
  labels: Map<string, PageLabel>;
}

/**
 * The docs root of a repository given its file paths, by the builder's rules (docs-root.ts): the
 * root when it holds a config, else `docs/`, else the shallowest folder (3 levels at most,
 * alphabetical among equals) holding one; with no config, `docs/` when only it has Markdown.
 */
export function findDocsRootIn(paths: readonly string[]): string {
  const configDirs = paths
    .filter((p) => (CONFIG_FILES as readonly string[]).includes(p.split('/').pop()!))
    .map((p) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : ''))
    .filter((d) => d.split('/').length <= 3 && !d.split('/').some((seg) => seg.startsWith('.') || seg === 'node_modules'));
  if (configDirs.includes('')) return '';
  if (configDirs.includes('docs')) return 'docs';
  const depth = (d: string) => d.split('/').length;
  const best = configDirs.sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))[0];
  if (best !== undefined) return best;
  const md = (dir: string) => paths.some((p) => (dir ? p.startsWith(`${dir}/`) && !p.slice(dir.length + 1).includes('/') : !p.includes('/')) && /\.mdx?$/i.test(p) && !/^(readme|license|changelog|contributing)\.md$/i.test(p.split('/').pop()!));
  return !md('') && md('docs') ? 'docs' : '';
}

/**
 * Builds the model of a project from its files (repository path → text; binary files left out).
 * @throws DocsError when the config cannot be used (the caller shows the message)
 */
export function buildProjectModel(repoFiles: Record<string, string>): ProjectModel {
  const docsRoot = findDocsRootIn(Object.keys(repoFiles));
  const prefix = docsRoot ? `${docsRoot}/` : '';
  const inRoot: Record<string, string> = {};
  for (const [p, text] of Object.entries(repoFiles)) if (p.startsWith(prefix)) inRoot[p.slice(prefix.length)] = text;
  const files = memoryFiles(inRoot);
  const { config } = loadSiteConfig(files);
  const pageFiles = listPageFiles(files);
  const labels = new Map<string, PageLabel>();
  for (const f of pageFiles) {
    const pagePath = pagePathOf(f);
    if (pagePath === undefined) continue;
    try {
      const split = splitFrontmatter(inRoot[f] ?? '', f);
      const fm = split.data;
      // the builder's page title: frontmatter title, else the first # heading (RenderedPage.title)
      const title = typeof fm.title === 'string' && fm.title ? fm.title : (firstHeading(split.content) ?? '');
      const sidebarTitle = typeof fm.sidebarTitle === 'string' ? fm.sidebarTitle : undefined;
      if (title || sidebarTitle) labels.set(pagePath, { title, ...(sidebarTitle ? { sidebarTitle } : {}) });
    } catch {
      // a page whose frontmatter does not parse keeps the title made from its path
    }
  }
  return { docsRoot, files, config, nav: fillTitles(config.navigation, labels), pageFiles, labels };
}

/** A node of the workspace tree the renderer shows: the navigation, then the files outside it. */
export interface TreeNode {
  /** what the tree item is named by: a page's title, a group's title, a file's path */
  label: string;
  kind: 'group' | 'page' | 'file';
  /** repository path of the page's or file's source (absent for groups and pages without a file) */
  path?: string;
  children?: TreeNode[];
}

/**
 * The workspace tree: the navigation of docs.json (divisions and groups as folders, pages by
 * title, each with its source file), then "Other files" holding every stored file that no
 * navigation page uses (snippets, images, config, pages left out of the navigation).
 * @param allPaths every repository path of the workspace
 */
export function workspaceTree(model: ProjectModel, allPaths: readonly string[]): TreeNode[] {
  const prefix = model.docsRoot ? `${model.docsRoot}/` : '';
  const fileOfPage = new Map<string, string>();
  for (const f of model.pageFiles) {
    const p = pagePathOf(f);
    if (p !== undefined && !fileOfPage.has(p)) fileOfPage.set(p, f);
  }
  const used = new Set<string>();
  const convert = (nodes: NavNode[]): TreeNode[] => {
    const out: TreeNode[] = [];
    for (const node of nodes) {
      if (node.type === 'page') {
        if (!node.path) continue;
        const file = fileOfPage.get(node.path);
        if (file) used.add(prefix + file);
        out.push({ label: node.title || node.path, kind: 'page', ...(file ? { path: prefix + file } : {}) });
      } else if (node.type === 'group' || node.type === 'division') {
        const children = convert(node.children);
        if (node.title) out.push({ label: node.title, kind: 'group', children });
        else out.push(...children);
      }
    }
    return out;
  };
  const nav = convert(model.nav);
  const others = allPaths.filter((p) => !used.has(p)).sort();
  return others.length ? [...nav, { label: 'Other files', kind: 'group', children: others.map((p) => ({ label: p, kind: 'file', path: p })) }] : nav;
}
