import ignore from 'ignore';
import type { BuildWarning, DocsFiles } from '../types';
import { pagePathOf } from '../nav/check-navigation';

/**
 * What Mintlify leaves out of a site with no `.mintignore` (MINTLIFY-FORMAT.md section 1), in
 * gitignore syntax. Tool folders and the repository's meta files (a bare name) are left out at any
 * depth; the output folders `build`, `dist`, `coverage`, `tmp` and `temp` only at the docs root
 * (a leading `/`), where a tool writes them: a docs folder such as `fr/products/x/build/` holds
 * pages the navigation lists (a real repository's "Build" group per language answered 404).
 */
export const DEFAULT_IGNORES: readonly string[] = [
  '.git', '.github', '.claude', '.agents', '.idea', '.vscode', 'node_modules', '/build/', '/dist/', '/coverage/',
  '.cache', '/tmp/', '/temp/', 'README.md', 'LICENSE.md', 'CHANGELOG.md', 'CONTRIBUTING.md',
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
  ig.add(readMintignore(files).rules);
  return (filePath) => filePath !== '' && ig.ignores(filePath);
}

/** Most `.mintignore` rules used; later lines are left out with a warning. */
export const MAX_IGNORE_RULES = 1000;
/**
 * Most `**` in one `.mintignore` rule. The `ignore` package matches `**` with a backtracking
 * regular expression whose cost grows with their number and the path's depth (three in one rule
 * take tens of milliseconds per deep path, six take seconds), so rules with more are left out.
 */
export const MAX_IGNORE_GLOBSTARS = 2;

/**
 * The root `.mintignore`'s rules (gitignore syntax; blank lines and `#` comments dropped) within
 * {@link MAX_IGNORE_RULES} and {@link MAX_IGNORE_GLOBSTARS}, and a `config` warning for each rule
 * left out. No file gives no rules.
 */
export function readMintignore(files: DocsFiles): { rules: string[]; warnings: BuildWarning[] } {
  const text = files.read('.mintignore');
  const rules: string[] = [];
  const warnings: BuildWarning[] = [];
  if (text === undefined) return { rules, warnings };
  const lines = text.split(/\r?\n/);
  let dropped = 0;
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (rules.length >= MAX_IGNORE_RULES) {
      dropped++;
      return;
    }
    if ((line.match(/\*\*/g)?.length ?? 0) > MAX_IGNORE_GLOBSTARS) {
      warnings.push({ file: '.mintignore', line: i + 1, kind: 'config', message: `.mintignore:${i + 1}: a rule may use "**" at most ${MAX_IGNORE_GLOBSTARS} times; rule ignored.` });
      return;
    }
    rules.push(raw);
  });
  if (dropped > 0) {
    warnings.push({ file: '.mintignore', kind: 'config', message: `.mintignore: only the first ${MAX_IGNORE_RULES} rules are used; ${dropped} more ignored.` });
  }
  return { rules, warnings };
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
