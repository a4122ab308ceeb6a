import fs from 'node:fs';
import path from 'node:path';
import type { BuildWarning } from '@quire/shared/docs/types';
import { formatBytes, type BuildLimits } from './build-limits';
import { BuildError } from './errors';

/** What `git ls-tree -r -l -z` says of a commit's tree, before anything is checked out. */
export interface TreeSummary {
  /** blobs and symlinks (submodule entries are not counted: they are never fetched) */
  files: number;
  /** sum of blob sizes in bytes */
  bytes: number;
  /** paths of symbolic links (mode 120000), relative to the repository root */
  symlinks: string[];
  /** the deepest path (most `/`-separated segments), or '' for an empty tree */
  deepest: string;
}

/**
 * Most folders a path may be nested in. Real documentation stays under ten; deep paths multiply
 * the cost of `.mintignore` matching and of every walk of the tree.
 */
export const MAX_PATH_DEPTH = 64;

/**
 * Parses the NUL-separated output of `git ls-tree -r -l -z <commit>`: records of
 * `<mode> <type> <object> <size>\t<path>` (size `-` for submodules).
 */
export function summarizeTree(lsTree: string): TreeSummary {
  const summary: TreeSummary = { files: 0, bytes: 0, symlinks: [], deepest: '' };
  let deepestDepth = 0;
  for (const record of lsTree.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, , size] = record.slice(0, tab).split(/\s+/);
    const file = record.slice(tab + 1);
    if (type !== 'blob') continue;
    summary.files++;
    const bytes = Number(size);
    if (Number.isFinite(bytes)) summary.bytes += bytes;
    if (mode === '120000') summary.symlinks.push(file);
    const depth = file.split('/').length;
    if (depth > deepestDepth) {
      deepestDepth = depth;
      summary.deepest = file;
    }
  }
  return summary;
}

/**
 * Checks a commit's tree against the build's limits (and {@link MAX_PATH_DEPTH}) before it is checked out. (Single files above
 * `MAX_FILE_BYTES` are left out later, with a warning, by checkout-files.ts and site-writer.ts.)
 * @throws BuildError naming the limit when the tree has too many files or bytes.
 */
export function checkTreeLimits(tree: TreeSummary, limits: Pick<BuildLimits, 'maxTreeBytes' | 'maxTreeFiles'>): void {
  if (tree.files > limits.maxTreeFiles) {
    throw new BuildError(
      `The repository has ${tree.files.toLocaleString('en-US')} files; a build takes at most ${limits.maxTreeFiles.toLocaleString('en-US')} (QUIRE_BUILD_MAX_FILES). Move large generated or vendored trees out of the docs repository.`,
    );
  }
  const depth = tree.deepest ? tree.deepest.split('/').length - 1 : 0;
  if (depth > MAX_PATH_DEPTH) {
    const shown = tree.deepest.length > 120 ? `${tree.deepest.slice(0, 120)}…` : tree.deepest;
    throw new BuildError(`${shown}: the file is ${depth} folders deep; a build takes at most ${MAX_PATH_DEPTH}.`);
  }
  if (tree.bytes > limits.maxTreeBytes) {
    throw new BuildError(
      `The repository's files add up to ${formatBytes(tree.bytes)}; a build takes at most ${formatBytes(limits.maxTreeBytes)} (QUIRE_BUILD_MAX_REPO_MB). Keep large media out of the docs repository.`,
    );
  }
}

/**
 * Removes the symbolic links of a fresh checkout that lead outside it, into its `.git` folder, or
 * nowhere (decisions.md section 10: a build reads only files inside its checkout), with a
 * `symlink` warning naming each. Links to files and folders inside the checkout stay.
 * @param checkoutDir absolute path of the working tree
 * @param links symlink paths relative to it, from {@link summarizeTree}
 */
export function removeEscapingSymlinks(checkoutDir: string, links: string[]): BuildWarning[] {
  const root = fs.realpathSync(checkoutDir);
  const gitDir = path.join(root, '.git');
  const inside = (p: string) => (p === root || p.startsWith(root + path.sep)) && p !== gitDir && !p.startsWith(gitDir + path.sep);
  const warnings: BuildWarning[] = [];
  // Resolve every link before removing any: a link to a link that escapes is judged by the final target.
  const verdicts = links.map((link) => {
    const abs = path.join(root, link);
    try {
      return { link, abs, reason: inside(fs.realpathSync(abs)) ? undefined : 'points outside the repository' };
    } catch {
      return { link, abs, reason: 'is broken' };
    }
  });
  for (const { link, abs, reason } of verdicts) {
    if (!reason) continue;
    fs.rmSync(abs, { force: true });
    warnings.push({ kind: 'symlink', file: link, message: `symbolic link ${link} ${reason}; removed from the checkout` });
  }
  return warnings;
}
