/**
 * The build's lint step (decisions.md section 9: builds run the same linter as the desktop app and
 * `POST /lint`): every page file is linted with the project's style rules, glossary and settings
 * on the worker pool, and findings are kept in a per-project cache keyed by the linter's version,
 * the configuration and the page's content, so a rebuild lints only changed pages. The options
 * carry the build's page inventory (`LinterOptions.inventory`, the one the build's link check uses),
 * so `links/broken`, `images/missing` and `components/unknown` are recorded too; the inventory is
 * part of the configuration key, so adding or removing a page or file relints every page.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LinterOptions } from '@quire/shared/lint/linter';
import type { LintFinding } from '@quire/shared/lint/types';
import type { DocsFiles } from '@quire/shared/docs/types';
import { linterVersion } from './page-cache';
import { lintInPool, renderPoolSize } from './render-pool';

/** `localeCompare`'s order, without building a collator per comparison. */
const byLocale = new Intl.Collator();

/** A lint cache entry, or undefined when it is missing or unreadable (a miss). */
function readEntry(file: string): { key: string; findings: LintFinding[] } | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as { key: string; findings: LintFinding[] };
  } catch {
    return undefined;
  }
}

/** The findings of one page (repository path relative to the docs root). */
export interface PageLint {
  path: string;
  findings: LintFinding[];
}

/** What the lint step found. */
export interface LintReport {
  pages: PageLint[];
  /** findings per rule id, most first */
  counts: [string, number][];
  /** pages whose findings came from the cache */
  fromCache: number;
}

/**
 * Lints `pageFiles` (paths in `files`, the docs root of `checkoutDir` at `docsRoot`) with `lint`,
 * reusing cached findings of unchanged pages from `cacheDir`. A page that cannot be linted is
 * reported in `failures` (the build goes on: linting never fails a build).
 * `known` holds findings an incremental build knows still hold (the previous build's, for pages
 * whose text, links' verdicts and lint options did not change): those pages are neither read nor
 * linted, and count as from the cache. With `prune` false the cache keeps entries of other pages.
 * @throws the signal's reason when `signal` aborts.
 */
export async function lintPages(input: {
  pageFiles: readonly string[];
  files: DocsFiles;
  checkoutDir: string;
  docsRoot: string;
  cacheDir: string;
  buildKey: string;
  lint: LinterOptions;
  signal: AbortSignal;
  onFailure: (message: string) => void;
  known?: ReadonlyMap<string, LintFinding[]>;
  /** remove cache entries of files not in `pageFiles` (default true) */
  prune?: boolean;
  /** read the cache (default true; false lints every page, `force`) */
  useCache?: boolean;
}): Promise<LintReport> {
  fs.mkdirSync(input.cacheDir, { recursive: true });
  const config = createHash('sha256').update(`${linterVersion()}\0${JSON.stringify(input.lint)}`).digest('hex');
  const entryFile = (p: string) => path.join(input.cacheDir, `${createHash('sha256').update(p).digest('hex').slice(0, 40)}.json`);
  const keyOf = (p: string) => createHash('sha256').update(`${config}\0${p}\0${input.files.read(p) ?? ''}`).digest('hex');

  const pages: PageLint[] = [];
  const misses: { path: string; key: string }[] = [];
  for (const p of input.pageFiles) {
    const known = input.known?.get(p);
    if (known) {
      pages.push({ path: p, findings: known });
      continue;
    }
    const key = keyOf(p);
    const cached = input.useCache === false ? undefined : readEntry(entryFile(p));
    if (cached?.key === key) pages.push({ path: p, findings: cached.findings });
    else misses.push({ path: p, key });
  }
  const fromCache = pages.length;

  // As many pages at once as the pool has workers; the rest wait their turn.
  let next = 0;
  const worker = async () => {
    while (next < misses.length) {
      const miss = misses[next++]!;
      input.signal.throwIfAborted();
      const result = await lintInPool(
        { buildKey: input.buildKey, checkoutDir: input.checkoutDir, docsRoot: input.docsRoot, filePath: miss.path, lint: input.lint },
        input.signal,
      );
      if (!result.ok) {
        input.onFailure(result.message);
        continue;
      }
      pages.push({ path: miss.path, findings: result.findings });
      try {
        const target = entryFile(miss.path);
        fs.writeFileSync(`${target}.tmp`, JSON.stringify({ key: miss.key, findings: result.findings }));
        fs.renameSync(`${target}.tmp`, target);
      } catch {
        /* a cache that cannot be written only costs time */
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, renderPoolSize()) }, worker));

  if (input.prune !== false) {
    const wanted = new Set(input.pageFiles.map((p) => path.basename(entryFile(p))));
    for (const name of fs.readdirSync(input.cacheDir)) if (!wanted.has(name)) fs.rmSync(path.join(input.cacheDir, name), { force: true });
  }

  pages.sort((a, b) => byLocale.compare(a.path, b.path));
  const byRule = new Map<string, number>();
  for (const p of pages) for (const f of p.findings) byRule.set(f.ruleId, (byRule.get(f.ruleId) ?? 0) + 1);
  return { pages, counts: [...byRule].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])), fromCache };
}
