import path from 'node:path';
import { loadProject as loadDocsProject, type LoadedProject as DocsProject } from '@quire/shared/docs/config/index';
import { openDocsFiles } from './checkout-files';
import { checkoutFolders } from './docs-root';
import { BuildError } from './errors';

/**
 * A checkout's project as the configuration describes it (shared/src/docs/config/load-project.ts),
 * plus where its docs root is on disk: plain data (structured-clone safe), so that it can be loaded
 * on a worker thread and handed to the build.
 */
export interface LoadedProject extends DocsProject {
  /** absolute real path of the docs root */
  docsRoot: string;
}

/**
 * Loads the project of a checkout with the shared loader (docs root, docs.json/mint.json with `$ref`s,
 * `.mintignore`, pages, OpenAPI navigation and its checks) over the checkout's files on disk. Reads
 * repository content, so the builder runs it on a worker thread with a bounded heap, never on the
 * server's main thread (see render-pool.ts).
 * @throws BuildError when there is no page; DocsError for a configuration that cannot be used
 */
export function loadProject(checkoutDir: string): LoadedProject {
  const { project: p, files } = loadDocsProject({
    ...checkoutFolders(checkoutDir),
    open: (docsRootRel) => openDocsFiles(checkoutDir, path.join(checkoutDir, docsRootRel)),
  });
  if (p.pageFiles.length === 0 && p.operations.length === 0) {
    throw new BuildError(`No pages found${p.docsRootRel ? ` in ${p.docsRootRel}/` : ''}: add .md or .mdx files (and a docs.json).`);
  }
  return {
    docsRootRel: p.docsRootRel,
    docsRoot: files.root,
    config: p.config,
    nav: p.nav,
    pageFiles: p.pageFiles,
    operations: p.operations,
    listedFiles: p.listedFiles,
    warnings: p.warnings,
    ...(p.apiCoverage ? { apiCoverage: p.apiCoverage } : {}),
  };
}
