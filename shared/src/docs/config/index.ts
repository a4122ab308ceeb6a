/**
 * The docs config loader (decisions.md section 5): the project loader (docs root, docs.json / mint.json
 * with `$ref` or folder navigation without a config, OpenAPI pages); the page inventory; the docs.json JSON Schema.
 */
export { loadSiteConfig, type LoadedSiteConfig } from './load-site-config';
export { folderNavigation, firstHeading, type FolderNavigation } from './folder-navigation';
export {
  listPageFiles, createIgnoreMatcher, readMintignore, hasSiteConfig, DEFAULT_IGNORES, SNIPPET_FOLDERS, CONFIG_FILES,
  MAX_IGNORE_RULES, MAX_IGNORE_GLOBSTARS,
} from './page-files';
export { titleFromPath } from './title-from-path';
export { docsJsonSchema, THEMES } from './docs-json-schema';
export { loadJsonWithRefs, type ResolvedJson, type JsonOrigin } from './resolve-refs';
export { isOperationEntry, normalizePagePath } from './page-entry';
export { findDocsRoot, repoFoldersOf, DOCS_ROOT_SKIPPED_FOLDERS, DOCS_ROOT_MAX_DEPTH, type RepoFolders } from './docs-root';
export { loadProject, memoryRepository, type DocsRepository, type LoadedProject, type LoadProjectOptions } from './load-project';
export { expandOpenApiNav, navUsesOpenApi, operationRef, apiCoverage, type OperationPage, type ApiCoverage } from './openapi-pages';
