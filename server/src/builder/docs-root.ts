import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_FILES } from '@quire/shared/docs/config/index';


const SKIP = new Set(['.git', 'node_modules', '.github', 'dist', 'build', 'coverage']);

/**
 * Finds the docs root of a checkout and returns it relative to the checkout ('' = repository root):
 * 1. the repository root when it holds docs.json or mint.json;
 * 2. `docs/` when it does (the monorepo convention, 5 of 6 real corpora);
 * 3. the shallowest folder (up to 3 levels, alphabetical among equals) holding one;
 * 4. with no config anywhere: `docs/` if it holds Markdown files and the root holds none, else the root.
 */
export function findDocsRoot(checkoutDir: string): string {
  const hasConfig = (rel: string) => CONFIG_FILES.some((f) => fs.existsSync(path.join(checkoutDir, rel, f)));
  if (hasConfig('')) return '';
  if (hasConfig('docs')) return 'docs';
  let level = ['']; // breadth-first over folders
  for (let depth = 1; depth <= 3 && level.length > 0; depth++) {
    const next: string[] = [];
    for (const rel of level) {
      for (const name of subdirs(path.join(checkoutDir, rel))) next.push(rel ? `${rel}/${name}` : name);
    }
    const found = next.filter(hasConfig).sort();
    if (found.length > 0) return found[0]!;
    level = next;
  }
  const hasMarkdown = (rel: string) => {
    try {
      return fs.readdirSync(path.join(checkoutDir, rel)).some((f) => /\.mdx?$/i.test(f) && !/^(readme|license|changelog|contributing)\.md$/i.test(f));
    } catch {
      return false;
    }
  };
  return !hasMarkdown('') && hasMarkdown('docs') ? 'docs' : '';
}

function subdirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}
