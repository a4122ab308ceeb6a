import ignore from 'ignore';
import type { DocsFiles } from '../types';
import { pagePathOf } from '../nav/check-navigation';

/**
 * What Mintlify leaves out of a site with no `.mintignore` (MINTLIFY-FORMAT.md section 1), in
 * gitignore syntax: a bare name matches at any depth.
 */
export const DEFAULT_IGNORES: readonly string[] = [
  '.git', '.github', '.claude', '.agents', '.idea', '.vscode', 'node_modules', 'build', 'dist', 'coverage',
  '.cache', 'tmp', 'temp', 'README.md', 'LICENSE.md', 'CHANGELOG.md', 'CONTRIBUTING.md',
];

/** Root folders whose files are snippets, never standalone pages (section 5; `_snippets/` is the legacy name). */
export const SNIPPET_FOLDERS: readonly string[] = ['snippets/', '_snippets/'];

/** The config file names, in the order they are looked for. */
export const CONFIG_FILES = ['docs.json', 'mint.json'] as const;

/** True when the docs root has a docs.json or mint.json. */
export function hasSiteConfig(files: DocsFiles): boolean {
  return CONFIG_FILES.some((f) => files.exists(f));
}

/**
 * A predicate telling whether a file path is left out of the site: the default ignores plus the
 * root `.mintignore` (gitignore syntax, including `!` negations that re-include a default).
 * Without docs.json or mint.json the folder is plain Markdown rather than a Mintlify project,
 * so `README.md` files are kept there (they are the natural folder index).
 */
export function createIgnoreMatcher(files: DocsFiles): (filePath: string) => boolean {
  const defaults = hasSiteConfig(files) ? DEFAULT_IGNORES : DEFAULT_IGNORES.filter((p) => p !== 'README.md');
  const ig = ignore({ ignorecase: false }).add([...defaults]);
  const mintignore = files.read('.mintignore');
  if (mintignore !== undefined) ig.add(mintignore);
  return (filePath) => filePath !== '' && ig.ignores(filePath);
}

/**
 * The file paths of the site's pages, sorted: `.md`/`.mdx` files that are not snippets (under the
 * root `snippets/` or `_snippets/`), not ignored by `.mintignore` or the default ignores
 * (see {@link createIgnoreMatcher}). Pages not in the navigation are still pages ("hidden pages").
 */
export function listPageFiles(files: DocsFiles): string[] {
  const ignored = createIgnoreMatcher(files);
  return files
    .list()
    .filter((f) => pagePathOf(f) !== undefined && !SNIPPET_FOLDERS.some((s) => f.startsWith(s)) && !ignored(f))
    .sort();
}
