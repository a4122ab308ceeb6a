import path from 'node:path';
import { listPageFiles, loadSiteConfig, readMintignore } from '@quire/shared/docs/config/index';
import { checkNavigation } from '@quire/shared/docs/nav/index';
import { loadOpenApiRegistry } from '@quire/shared/docs/openapi/index';
import type { BuildWarning, NavNode, SiteConfig } from '@quire/shared/docs/types';
import { openDocsFiles } from './checkout-files';
import { findDocsRoot } from './docs-root';
import { BuildError } from './errors';
import { apiCoverage, expandOpenApiNav, navUsesOpenApi, type ApiCoverage, type OperationPage } from './openapi-pages';

/**
 * A checkout's project as the configuration describes it: plain data (structured-clone safe), so
 * that it can be loaded on a worker thread and handed to the build.
 */
export interface LoadedProject {
  /** docs root relative to the checkout ('' = repository root) */
  docsRootRel: string;
  /** absolute real path of the docs root */
  docsRoot: string;
  config: SiteConfig;
  /** navigation with OpenAPI groups expanded into pages */
  nav: NavNode[];
  /** Markdown/MDX files of the docs root, relative to it */
  pageFiles: string[];
  operations: OperationPage[];
  /** every file of the docs root that `.mintignore` and the default ignores keep (for `openDocsFiles`) */
  listedFiles: string[];
  /** configuration, `.mintignore`, OpenAPI and navigation warnings (file-walk warnings are the caller's) */
  warnings: BuildWarning[];
  /** public OpenAPI operations of the repository and how many have a page (openapi-pages.ts `apiCoverage`); absent in older build states */
  apiCoverage?: ApiCoverage;
}

/**
 * Finds the docs root, reads docs.json/mint.json (with `$ref`s), applies `.mintignore`, lists
 * pages, expands OpenAPI navigation and checks it. Reads repository content, so the builder runs it on a worker thread
 * with a bounded heap, never on the server's main thread (see render-pool.ts).
 * @throws BuildError when there is no page; DocsError for a configuration that cannot be used
 */
export function loadProject(checkoutDir: string): LoadedProject {
  const docsRootRel = findDocsRoot(checkoutDir);
  const files = openDocsFiles(checkoutDir, path.join(checkoutDir, docsRootRel));
  const warnings: BuildWarning[] = [...readMintignore(files).warnings];
  const loaded = loadSiteConfig(files);
  const config = loaded.config;
  warnings.push(...loaded.warnings);
  const configFile = config.source ?? undefined;
  const pageFiles = listPageFiles(files);
  let nav = config.navigation;
  let operations: OperationPage[] = [];
  // the registry is loaded for every build: coverage counts the repository's specs even when the navigation names none
  const { registry, warnings: specWarnings } = loadOpenApiRegistry(files, config.openapi);
  if (navUsesOpenApi(nav)) {
    warnings.push(...specWarnings);
    const expanded = expandOpenApiNav(nav, registry, configFile);
    nav = expanded.nav;
    operations = expanded.operations;
    warnings.push(...expanded.warnings);
  }
  const coverage = apiCoverage(registry, operations, pageFiles, (file) => files.read(file));
  // the navigation as written: generated OpenAPI pages have no file, and are not the author's entries
  warnings.push(...checkNavigation(config.navigation, pageFiles, configFile));
  if (pageFiles.length === 0 && operations.length === 0) {
    throw new BuildError(`No pages found${docsRootRel ? ` in ${docsRootRel}/` : ''}: add .md or .mdx files (and a docs.json).`);
  }
  return { docsRootRel, docsRoot: files.root, config, nav, pageFiles, operations, listedFiles: files.list(), warnings, apiCoverage: coverage };
}
