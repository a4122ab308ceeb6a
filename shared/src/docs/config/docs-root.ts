import { CONFIG_FILES } from './page-files';

/**
 * Folders never searched for a docs root (besides every folder whose name starts with `.`): version
 * control data, dependency trees, CI settings and build output.
 */
export const DOCS_ROOT_SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['.git', 'node_modules', '.github', 'dist', 'build', 'coverage']);

/** Deepest folder level searched for a config file (the repository root is level 0). */
export const DOCS_ROOT_MAX_DEPTH = 3;

/** Page files that never make a folder a docs root by themselves: a repository's meta files. */
const META_FILE = /^(readme|license|changelog|contributing)\.md$/i;

/**
 * What the docs-root search reads of a repository: what lies directly inside one of its folders.
 * The server reads a checkout on disk; the desktop app a list of stored paths ({@link repoFoldersOf}).
 */
export interface RepoFolders {
  /**
   * Names of the files and of the subfolders directly inside folder `dir` (repository-relative, POSIX,
   * '' = the root); both empty when the folder does not exist.
   */
  list(dir: string): { files: readonly string[]; folders: readonly string[] };
}

/**
 * Finds the docs root of a repository and returns it relative to the repository root ('' = the root):
 * 1. the root when it holds docs.json or mint.json;
 * 2. `docs/` when it does (the monorepo convention, 5 of 6 real corpora);
 * 3. the shallowest folder (up to {@link DOCS_ROOT_MAX_DEPTH} levels, in code-unit order among equals)
 *    holding one, never inside {@link DOCS_ROOT_SKIPPED_FOLDERS} or a folder whose name starts with `.`;
 * 4. with no config anywhere: `docs/` if it holds Markdown files and the root holds none (README,
 *    LICENSE, CHANGELOG and CONTRIBUTING do not count), else the root.
 */
export function findDocsRoot(repo: RepoFolders): string {
  const hasConfig = (rel: string) => {
    const { files } = repo.list(rel);
    return CONFIG_FILES.some((f) => files.includes(f));
  };
  if (hasConfig('')) return '';
  if (hasConfig('docs')) return 'docs';
  let level = ['']; // breadth-first over folders
  for (let depth = 1; depth <= DOCS_ROOT_MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const rel of level) {
      const names = repo
        .list(rel)
        .folders.filter((name) => !DOCS_ROOT_SKIPPED_FOLDERS.has(name) && !name.startsWith('.'))
        .sort();
      for (const name of names) next.push(rel ? `${rel}/${name}` : name);
    }
    const found = next.filter(hasConfig).sort();
    if (found.length > 0) return found[0]!;
    level = next;
  }
  const hasMarkdown = (rel: string) => repo.list(rel).files.some((f) => /\.mdx?$/i.test(f) && !META_FILE.test(f));
  return !hasMarkdown('') && hasMarkdown('docs') ? 'docs' : '';
}

/** A {@link RepoFolders} over the file paths of a repository (repository-relative, POSIX); folders are those the paths pass through. */
export function repoFoldersOf(paths: Iterable<string>): RepoFolders {
  const folders = new Map<string, { files: string[]; folders: Set<string> }>();
  const at = (dir: string) => {
    let entry = folders.get(dir);
    if (!entry) folders.set(dir, (entry = { files: [], folders: new Set() }));
    return entry;
  };
  for (const p of paths) {
    const segments = p.split('/').filter((s) => s !== '');
    if (segments.length === 0) continue;
    let dir = '';
    for (const seg of segments.slice(0, -1)) {
      at(dir).folders.add(seg);
      dir = dir ? `${dir}/${seg}` : seg;
    }
    at(dir).files.push(segments[segments.length - 1]!);
  }
  return {
    list: (dir) => {
      const entry = folders.get(dir);
      return entry ? { files: entry.files, folders: [...entry.folders] } : { files: [], folders: [] };
    },
  };
}
