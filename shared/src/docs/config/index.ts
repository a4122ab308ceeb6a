/**
 * The docs config loader (decisions.md section 5): docs.json / mint.json with `$ref`, or folder
 * navigation without a config; the page inventory; the docs.json JSON Schema.
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
