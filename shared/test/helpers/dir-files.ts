import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocsFiles } from '../../src/docs/types';
import { normalizeFilePath } from '../../src/docs/files';

/** The three real corpora, vendored in `fixtures/corpora` at the repository's root (each with its SOURCE.md and licence). */
export const CORPUS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/corpora');

/** A test-only {@link DocsFiles} over a directory (no symlink policy; the server has the real one). */
export function dirFiles(root: string): DocsFiles {
  const all: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === '.git' || e.name === 'node_modules') continue;
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.isFile()) all.push(path.relative(root, abs).split(path.sep).join('/'));
    }
  };
  walk(root);
  all.sort();
  return {
    read: (p) => {
      const n = normalizeFilePath(p);
      if (n === undefined) return undefined;
      try {
        return fs.readFileSync(path.join(root, n), 'utf8');
      } catch {
        return undefined;
      }
    },
    exists: (p) => {
      const n = normalizeFilePath(p);
      return n !== undefined && fs.existsSync(path.join(root, n));
    },
    list: () => all,
  };
}
