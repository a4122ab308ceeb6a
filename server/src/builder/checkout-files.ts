import fs from 'node:fs';
import path from 'node:path';
import { normalizeFilePath } from '@quire/shared/docs/files';
import { createIgnoreMatcher } from '@quire/shared/docs/config/index';
import type { BuildWarning, DocsFiles } from '@quire/shared/docs/types';
import { BuildError } from './errors';

/** Largest file the builder reads or copies: 20 MB (MINTLIFY-FORMAT.md section 1). */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** Directories never walked (besides being ignored): VCS data and dependency trees. */
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

/** The real {@link DocsFiles} over a docs root inside a checkout, plus what the builder needs besides. */
export interface CheckoutFiles extends DocsFiles {
  /** absolute path of the docs root */
  readonly root: string;
  /** absolute path of the real file behind a file path (symlinks resolved), or undefined */
  absolutePath(filePath: string): string | undefined;
  /** size in bytes of a file path, or undefined */
  size(filePath: string): number | undefined;
  /** symlinks refused because they leave the checkout (or are broken): one warning each */
  readonly warnings: BuildWarning[];
  /** true when `list()` leaves the file out (.mintignore or the default ignores) */
  isIgnored(filePath: string): boolean;
  /**
   * Files reached through a symbolic link (to a file inside the checkout): file path → real absolute
   * path of the target. A change to the target changes these files (builder/incremental.ts).
   */
  readonly linkTargets: ReadonlyMap<string, string>;
}

/**
 * Walks `root` (a docs root inside the checkout `boundary`) once and returns file access limited to
 * it (decisions.md section 10): a root whose real path leaves `boundary` is refused, paths escaping the root give undefined, symlinks whose target leaves
 * `boundary` are left out with a `symlink` warning, symlinked directories are not followed, `.git`
 * and `node_modules` are skipped, files above {@link MAX_FILE_BYTES} read as undefined.
 * `list()` holds every file except those the `ignore` predicate rejects (built lazily from the unfiltered
 * files, e.g. shared/src/docs/config's `createIgnoreMatcher`: .mintignore and the default ignores,
 * MINTLIFY-FORMAT.md section 1); ignored files can still be read (snippets) but are neither pages nor copied.
 * Text reads are cached: create a new instance for each build.
 * @throws BuildError when the real path of `root` is outside `boundary` (a symlinked docs folder)
 */
export function createCheckoutFiles(
  root: string,
  options: { boundary?: string; ignore?: (files: DocsFiles) => (filePath: string) => boolean } = {},
): CheckoutFiles {
  const realRoot = fs.realpathSync(root);
  const boundary = fs.realpathSync(options.boundary ?? root);
  const inside = (p: string) => p === boundary || p.startsWith(boundary + path.sep);
  if (!inside(realRoot)) {
    throw new BuildError(`The docs folder ${path.relative(boundary, root) || '.'} is a symbolic link that leads outside the repository; it is not built.`);
  }
  const files = new Map<string, { abs: string; size: number }>();
  const linkTargets = new Map<string, string>();
  const warnings: BuildWarning[] = [];

  const walk = (dirAbs: string, dirRel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dirAbs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name;
      const abs = path.join(dirAbs, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(abs, rel);
      } else if (entry.isFile()) {
        files.set(rel, { abs, size: fs.statSync(abs).size });
      } else if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = fs.realpathSync(abs);
        } catch {
          warnings.push({ kind: 'symlink', file: rel, message: 'broken symbolic link; ignored' });
          continue;
        }
        if (!inside(target)) {
          warnings.push({ kind: 'symlink', file: rel, message: 'symbolic link points outside the repository; ignored' });
          continue;
        }
        const stat = fs.statSync(target);
        if (stat.isFile()) {
          files.set(rel, { abs: target, size: stat.size });
          linkTargets.set(rel, target);
        }
      }
    }
  };
  walk(realRoot, '');

  let isIgnored: ((p: string) => boolean) | undefined;
  let listed: string[] | undefined;
  const texts = new Map<string, string | undefined>();
  const entry = (p: string) => {
    const n = normalizeFilePath(p);
    return n === undefined ? undefined : files.get(n);
  };

  const self: CheckoutFiles = {
    root: realRoot,
    warnings,
    linkTargets,
    read(p) {
      const n = normalizeFilePath(p);
      if (n === undefined) return undefined;
      if (texts.has(n)) return texts.get(n);
      const e = files.get(n);
      let text: string | undefined;
      if (e && e.size <= MAX_FILE_BYTES) {
        try {
          text = fs.readFileSync(e.abs, 'utf8');
        } catch {
          text = undefined;
        }
      }
      texts.set(n, text);
      return text;
    },
    exists: (p) => entry(p) !== undefined,
    list() {
      listed ??= [...files.keys()].filter((p) => !self.isIgnored(p)).sort();
      return listed;
    },
    isIgnored(p) {
      isIgnored ??= options.ignore ? options.ignore({ read: self.read, exists: self.exists, list: () => [...files.keys()].sort() }) : () => false;
      return isIgnored(p);
    },
    absolutePath: (p) => entry(p)?.abs,
    size: (p) => entry(p)?.size,
  };
  return self;
}

/**
 * The docs files of a build: {@link createCheckoutFiles} over `docsRoot` (absolute, inside
 * `checkoutDir`), with .mintignore and Mintlify's default ignores applied to `list()`.
 * @param listed the files `list()` of an earlier instance gave (computed on a worker thread): when
 *   given, `list()` holds exactly these and `.mintignore`'s patterns are not evaluated again here
 */
export function openDocsFiles(checkoutDir: string, docsRoot: string, listed?: readonly string[]): CheckoutFiles {
  const ignore = listed
    ? () => {
        const kept = new Set(listed);
        return (filePath: string) => !kept.has(filePath);
      }
    : createIgnoreMatcher;
  return createCheckoutFiles(docsRoot, { boundary: checkoutDir, ignore });
}
