import type { DocsFiles } from './types';

/**
 * Normalizes a file path relative to the docs root: POSIX separators, no leading `/` or `./`,
 * `.` and `..` segments resolved. Returns undefined when the path escapes the root.
 * @example normalizeFilePath('/snippets/../snippets/a.mdx') === 'snippets/a.mdx'
 * @example normalizeFilePath('../etc/passwd') === undefined
 */
export function normalizeFilePath(p: string): string | undefined {
  const out: string[] = [];
  for (const seg of p.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

/**
 * Resolves `ref` as written in a file (`/snippets/a.mdx` from the root, `./a.mdx` or `../a.mdx`
 * relative to `fromFile`) to a file path; undefined when it escapes the root.
 */
export function resolveFilePath(fromFile: string, ref: string): string | undefined {
  if (ref.startsWith('/')) return normalizeFilePath(ref);
  const dir = fromFile.includes('/') ? fromFile.slice(0, fromFile.lastIndexOf('/')) : '';
  return normalizeFilePath(`${dir}/${ref}`);
}

/** A {@link DocsFiles} over an in-memory map of file path → text (tests, the desktop preview). */
export function memoryFiles(files: Record<string, string>): DocsFiles {
  const map = new Map(Object.entries(files).map(([k, v]) => [normalizeFilePath(k) ?? k, v]));
  return {
    read: (p) => {
      const n = normalizeFilePath(p);
      return n === undefined ? undefined : map.get(n);
    },
    exists: (p) => {
      const n = normalizeFilePath(p);
      return n !== undefined && map.has(n);
    },
    list: () => [...map.keys()].sort(),
  };
}
