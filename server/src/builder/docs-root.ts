import fs from 'node:fs';
import path from 'node:path';
import { findDocsRoot as findDocsRootIn, type RepoFolders } from '@quire/shared/docs/config/index';

/**
 * The folders of a checkout on disk, as the shared docs-root search reads them: entries that are
 * folders (symbolic links to folders are not followed), and files (a symbolic link counts when
 * its target exists).
 */
export function checkoutFolders(checkoutDir: string): RepoFolders {
  return {
    list(rel) {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(path.join(checkoutDir, rel), { withFileTypes: true });
      } catch {
        return { files: [], folders: [] };
      }
      const files: string[] = [];
      const folders: string[] = [];
      for (const e of entries) {
        if (e.isDirectory()) folders.push(e.name);
        else if (!e.isSymbolicLink() || fs.existsSync(path.join(checkoutDir, rel, e.name))) files.push(e.name);
      }
      return { files, folders };
    },
  };
}

/**
 * Finds the docs root of a checkout and returns it relative to the checkout ('' = repository root),
 * by the shared rule (shared/src/docs/config/docs-root.ts `findDocsRoot`).
 */
export function findDocsRoot(checkoutDir: string): string {
  return findDocsRootIn(checkoutFolders(checkoutDir));
}
