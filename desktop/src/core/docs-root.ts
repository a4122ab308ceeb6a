import { CoreError } from './core-error';
import { CONFIG_FILES } from '@quire/shared/docs/config/page-files';
import type { Core } from './core';
import { findDocsRoot, repoFoldersOf } from '@quire/shared/docs/config/docs-root';

/** Where an opened project's docs live: the docs root folder ('' = the repository root) and its config file's path. */
export interface DocsRootInfo {
  docsRoot: string;
  /** repository path of docs.json (else mint.json) in the docs root; null when it has neither */
  configPath: string | null;
}

/**
 * The docs root of an opened project by the builder's rules (shared/src/docs/config/docs-root.ts) and
 * its config file, for the renderer's page and navigation edits (page paths are relative to the root).
 * @throws CoreError NOT_FOUND when the project was not opened
 */
export function docsRootOf(core: Core, projectId: string): DocsRootInfo {
  if (!core.store.workspace(projectId)) throw new CoreError('NOT_FOUND', 'Open the project first.');
  const paths = core.store.files(projectId).map((f) => f.path);
  const docsRoot = findDocsRoot(repoFoldersOf(paths));
  const prefix = docsRoot ? `${docsRoot}/` : '';
  const have = new Set(paths);
  const config = CONFIG_FILES.map((name) => prefix + name).find((p) => have.has(p));
  return { docsRoot, configPath: config ?? null };
}
