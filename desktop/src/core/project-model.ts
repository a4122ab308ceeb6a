import { findDocsRoot, firstHeading, loadProject, loadSiteConfig, memoryRepository, type OperationPage } from '@quire/shared/docs/config/index';
import { splitFrontmatter } from '@quire/shared/docs/markdown/frontmatter';
import { fillTitles, pagePathOf, type PageLabel } from '@quire/shared/docs/nav/index';
import { pageInventory } from '@quire/shared/docs/page-inventory';
import type { BuildWarning, DocsFiles, NavNode, SiteConfig } from '@quire/shared/docs/types';
import { isSiteConfigFile } from '@quire/shared/lint/docs-json';
import { createLinter, type LinterOptions } from '@quire/shared/lint/linter';
import type { LintFinding } from '@quire/shared/lint/types';

/**
 * A project as the docs engine sees it, loaded from in-memory files (the workspace's local text) by
 * the builder's loader (shared/src/docs/config/load-project.ts: docs root, config, OpenAPI pages),
 * with page titles filled in from frontmatter the way the builder does after rendering (pipeline.ts `fillTitles`).
 */
export interface ProjectModel {
  /** folder of docs.json/mint.json inside the repository ('' = root), shared/src/docs/config/docs-root.ts */
  docsRoot: string;
  /** files of the docs root, keyed by path relative to it */
  files: DocsFiles;
  config: SiteConfig;
  /** the build's navigation (OpenAPI operation pages included), titles filled in */
  nav: NavNode[];
  /** page files (relative to the docs root) */
  pageFiles: string[];
  /** the pages generated from OpenAPI operations */
  operations: OperationPage[];
  /** page path (`guides/setup`) → label (frontmatter title or first heading / sidebarTitle) */
  labels: Map<string, PageLabel>;
  /** the loader's warnings (configuration, OpenAPI, navigation entries without a file) */
  warnings: BuildWarning[];
}

/**
 * Loads the model of a project from its files (repository path → text; binary files left out).
 * @throws DocsError when the config cannot be used (the caller shows the message)
 */
export function buildProjectModel(repoFiles: Record<string, string>): ProjectModel {
  const { project, files } = loadProject(memoryRepository(repoFiles), { apiCoverage: false });
  const labels = new Map<string, PageLabel>();
  for (const f of project.pageFiles) {
    const pagePath = pagePathOf(f);
    if (pagePath === undefined) continue;
    try {
      const split = splitFrontmatter(files.read(f) ?? '', f);
      const fm = split.data;
      // the builder's page title: frontmatter title, else the first # heading (RenderedPage.title)
      const title = typeof fm.title === 'string' && fm.title ? fm.title : (firstHeading(split.content) ?? '');
      const sidebarTitle = typeof fm.sidebarTitle === 'string' ? fm.sidebarTitle : undefined;
      if (title || sidebarTitle) labels.set(pagePath, { title, ...(sidebarTitle ? { sidebarTitle } : {}) });
    } catch {
      // a page whose frontmatter does not parse keeps the title made from its path
    }
  }
  return {
    docsRoot: project.docsRootRel,
    files,
    config: project.config,
    nav: fillTitles(project.nav, labels),
    pageFiles: project.pageFiles,
    operations: project.operations,
    labels,
    warnings: project.warnings,
  };
}

/** A node of the workspace tree the renderer shows: the navigation, then the files outside it. */
export interface TreeNode {
  /** what the tree item is named by: a page's title, a group's title, a file's path */
  label: string;
  kind: 'group' | 'page' | 'file';
  /** repository path of the page's or file's source (absent for groups, generated and missing pages) */
  path?: string;
  /** a page generated from an OpenAPI operation: its HTTP method (uppercase, `WEBHOOK`), the site's badge */
  method?: string;
  /** a generated page: repository path of the OpenAPI spec file it comes from */
  spec?: string;
  /** a navigation entry naming a page that has no file (the build's `missing-page` warning) */
  missing?: true;
  /** a missing page: the page path its entry names, relative to the docs root (`guides/setup`) */
  page?: string;
  children?: TreeNode[];
}

/**
 * The workspace tree: the build's navigation (divisions and groups as folders, pages by title, each
 * with its source file; OpenAPI operation pages with their method and spec file, those the site does
 * not list left out; an entry whose page has no file marked `missing`), then "Other files" holding every
 * stored file that no navigation page uses (snippets, images, config, specs, pages left out of the navigation).
 * @param allPaths every repository path of the workspace
 */
export function workspaceTree(model: ProjectModel, allPaths: readonly string[]): TreeNode[] {
  const prefix = model.docsRoot ? `${model.docsRoot}/` : '';
  const fileOfPage = new Map<string, string>();
  for (const f of model.pageFiles) {
    const p = pagePathOf(f);
    if (p !== undefined && !fileOfPage.has(p)) fileOfPage.set(p, f);
  }
  const operations = new Map(model.operations.map((o) => [o.path, o]));
  const used = new Set<string>();
  const convert = (nodes: NavNode[]): TreeNode[] => {
    const out: TreeNode[] = [];
    for (const node of nodes) {
      if (node.type === 'page') {
        if (!node.path) continue;
        const label = node.title || node.path;
        const file = fileOfPage.get(node.path);
        const operation = file ? undefined : operations.get(node.path);
        if (file) {
          used.add(prefix + file);
          out.push({ label, kind: 'page', path: prefix + file });
        } else if (operation) {
          if (!operation.hidden) out.push({ label, kind: 'page', method: operation.method, spec: prefix + operation.specFile });
        } else out.push({ label, kind: 'page', missing: true, page: node.path });
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

/**
 * The findings of the linter (shared/src/lint) on `text`, the edited configuration file at repository
 * path `path`, against the workspace's own pages (page files and generated OpenAPI pages, with the
 * edited configuration applied); undefined when `path` is not named docs.json or mint.json (a page:
 * the caller lints it). A configuration that does not load, or a config file outside the docs root,
 * has no findings here (the tree shows the loading error).
 * @param repoFiles the workspace's text files (repository path → text)
 */
export async function lintSiteConfig(
  repoFiles: Record<string, string>,
  path: string,
  text: string,
  options: LinterOptions,
): Promise<LintFinding[] | undefined> {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (!isSiteConfigFile(name)) return undefined;
  let model: ProjectModel;
  try {
    model = buildProjectModel({ ...repoFiles, [path]: text });
  } catch {
    return [];
  }
  if (path !== (model.docsRoot ? `${model.docsRoot}/${name}` : name)) return [];
  const pages = [...model.pageFiles.map((f) => pagePathOf(f)!), ...model.operations.map((o) => o.path)];
  const inventory = pageInventory({ pages, files: model.files, redirects: model.config.redirects });
  return createLinter({ ...options, inventory }).lint(text, name);
}

/**
 * The site's docs.json (or mint.json) `variables` (SiteConfig.variables: name -> text put in for
 * `{{name}}`) of a workspace (repository path -> text), read from the docs root the build finds;
 * empty when the configuration does not load (the tree shows why).
 */
export function siteVariablesOf(repoFiles: Record<string, string>): Record<string, string> {
  const repo = memoryRepository(repoFiles);
  try {
    return loadSiteConfig(repo.open(findDocsRoot(repo))).config.variables;
  } catch {
    return {};
  }
}
