/**
 * Loading a docs project (architecture.md, rule of direction 7): one function for the builder, the
 * desktop app and the CLI. It reads no disk itself: the caller hands it the repository's folders and
 * opens the docs root as {@link DocsFiles} (a checkout on disk, or in-memory text).
 */
import { memoryFiles } from '../files';
import { checkNavigation } from '../nav/check-navigation';
import { loadOpenApiRegistry } from '../openapi/registry';
import type { BuildWarning, DocsFiles, NavNode, SiteConfig } from '../types';
import { findDocsRoot, repoFoldersOf, type RepoFolders } from './docs-root';
import { loadSiteConfig } from './load-site-config';
import { apiCoverage, expandOpenApiNav, navUsesOpenApi, type ApiCoverage, type OperationPage } from './openapi-pages';
import { listPageFiles, readMintignore } from './page-files';

/** A repository as {@link loadProject} reads it: its folders (to find the docs root), and the docs root's files once found. */
export interface DocsRepository<F extends DocsFiles = DocsFiles> extends RepoFolders {
  /**
   * The files of the docs root `docsRootRel` (repository-relative, '' = the root), paths relative to
   * it; `list()` may already leave out what `.mintignore` and the default ignores leave out.
   */
  open(docsRootRel: string): F;
}

/**
 * A project as its configuration describes it: plain data (structured-clone safe), so that it can be
 * loaded on a worker thread and handed on.
 */
export interface LoadedProject {
  /** docs root relative to the repository ('' = repository root) */
  docsRootRel: string;
  config: SiteConfig;
  /** navigation with OpenAPI groups and operation entries expanded into pages */
  nav: NavNode[];
  /** Markdown/MDX files of the docs root, relative to it (page-files.ts `listPageFiles`) */
  pageFiles: string[];
  /** the pages generated from OpenAPI operations (none when the navigation names no OpenAPI) */
  operations: OperationPage[];
  /** the docs root's files as its `DocsFiles.list()` gives them */
  listedFiles: string[];
  /** configuration, `.mintignore`, OpenAPI and navigation (`missing-page`, `duplicate-nav-entry`) warnings */
  warnings: BuildWarning[];
  /** public OpenAPI operations of the repository and how many have a page; absent when not asked for */
  apiCoverage?: ApiCoverage;
}

/** What {@link loadProject} computes besides the navigation. */
export interface LoadProjectOptions {
  /** count the repository's public operations and those with a page (reads every page's head); default true */
  apiCoverage?: boolean;
}

/**
 * Finds the docs root (docs-root.ts), reads docs.json/mint.json with its `$ref`s (or makes folder
 * navigation without one), applies `.mintignore`, lists the pages, expands the OpenAPI parts of the
 * navigation (openapi-pages.ts) and checks the navigation as written against the page files. A project
 * with no page at all loads (the caller decides whether that is an error).
 * @returns the project, and the docs root's files as `repo.open` gave them
 * @throws DocsError for a configuration that cannot be used (load-site-config.ts)
 */
export function loadProject<F extends DocsFiles>(repo: DocsRepository<F>, options: LoadProjectOptions = {}): { project: LoadedProject; files: F } {
  const docsRootRel = findDocsRoot(repo);
  const files = repo.open(docsRootRel);
  const warnings: BuildWarning[] = [...readMintignore(files).warnings];
  const loaded = loadSiteConfig(files);
  const config = loaded.config;
  warnings.push(...loaded.warnings);
  const configFile = config.source ?? undefined;
  const pageFiles = listPageFiles(files);
  let nav = config.navigation;
  let operations: OperationPage[] = [];
  // the registry is loaded for every project: coverage counts the repository's specs even when the navigation names none
  const usesOpenApi = navUsesOpenApi(nav);
  const registry = usesOpenApi || options.apiCoverage !== false ? loadOpenApiRegistry(files, config.openapi) : undefined;
  if (registry && usesOpenApi) {
    warnings.push(...registry.warnings);
    const expanded = expandOpenApiNav(nav, registry.registry, configFile);
    nav = expanded.nav;
    operations = expanded.operations;
    warnings.push(...expanded.warnings);
  }
  const coverage = registry && options.apiCoverage !== false ? apiCoverage(registry.registry, operations, pageFiles, (file) => files.read(file)) : undefined;
  // the navigation as written: generated OpenAPI pages have no file, and are not the author's entries
  warnings.push(...checkNavigation(config.navigation, pageFiles, configFile));
  const project: LoadedProject = {
    docsRootRel, config, nav, pageFiles, operations, listedFiles: files.list(), warnings, ...(coverage ? { apiCoverage: coverage } : {}),
  };
  return { project, files };
}

/**
 * A {@link DocsRepository} over in-memory files (repository path → text; the desktop app's workspace,
 * tests): the docs root opens as `memoryFiles` of the files under it.
 */
export function memoryRepository(repoFiles: Record<string, string>): DocsRepository {
  return {
    ...repoFoldersOf(Object.keys(repoFiles)),
    open: (docsRootRel) => {
      const prefix = docsRootRel ? `${docsRootRel}/` : '';
      const inRoot: Record<string, string> = {};
      for (const [p, text] of Object.entries(repoFiles)) if (p.startsWith(prefix)) inRoot[p.slice(prefix.length)] = text;
      return memoryFiles(inRoot);
    },
  };
}
