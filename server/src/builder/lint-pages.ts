/**
 * The build's lint step (decisions.md section 9: builds run the same linter as the desktop app and
 * `POST /lint`): every page file is linted with the project's style rules, glossary and settings
 * on the worker pool, in batches, and findings are kept in a per-project cache, so a rebuild lints
 * only pages whose findings may differ. The options carry the build's page inventory
 * (`LinterOptions.inventory`, the one the build's link check uses), so `links/broken`,
 * `images/missing` and `components/unknown` are recorded too.
 *
 * A cache entry holds while the page's text, the linter's version and the options other than the
 * inventory are the same (its key), and every target the page's navigation rules judged (linter.ts
 * `lintWithTargets`) gets the same verdict under this build's inventory (shared/src/docs/link-check.ts,
 * the rule of the link check). So adding, removing or renaming a page relints only the pages whose
 * links or images it makes broken or fixes, in a full build as in an incremental one. The
 * configuration file's findings depend on the whole inventory: its key includes it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkImageSource, checkLinkTarget } from '@quire/shared/docs/link-check';
import { indexInventory, type InventoryIndex } from '@quire/shared/docs/page-inventory';
import { isSiteConfigFile } from '@quire/shared/lint/docs-json';
import type { LinterOptions } from '@quire/shared/lint/linter';
import type { CheckedTargets } from '@quire/shared/lint/navigation';
import type { LintFinding } from '@quire/shared/lint/types';
import type { DocsFiles } from '@quire/shared/docs/types';
import { linterVersion } from './page-cache';
import { lintInPool, renderPoolSize } from './render-pool';

/** `localeCompare`'s order, without building a collator per comparison. */
const byLocale = new Intl.Collator();

/** A lint cache entry: the key of the page's text and options, the targets its navigation rules judged, their verdicts' hash. */
interface CacheEntry {
  key: string;
  targets: CheckedTargets;
  verdicts: string;
  findings: LintFinding[];
}

/** A lint cache entry, or undefined when it is missing, unreadable or of an older shape (a miss). */
function readEntry(file: string): CacheEntry | undefined {
  try {
    const entry = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<CacheEntry>;
    return entry.targets && typeof entry.verdicts === 'string' && typeof entry.key === 'string' && entry.findings ? (entry as CacheEntry) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The hash of the verdicts of `targets` (links and image sources of the page file `from`) under the
 * inventory `index` (none: the navigation rules did not run, nothing was judged).
 */
function verdictsOf(index: InventoryIndex | undefined, from: string, targets: CheckedTargets): string {
  const verdicts = index ? [targets.links.map((l) => checkLinkTarget(index, from, l)), targets.images.map((i) => checkImageSource(index, from, i))] : [];
  return createHash('sha256').update(JSON.stringify(verdicts)).digest('hex');
}

/** Pages per lint task: enough that the options cross to a worker rarely, few enough that every worker gets several batches. */
function batchSize(pages: number, workers: number): number {
  return Math.min(32, Math.max(1, Math.ceil(pages / (workers * 4))));
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
 * reusing the cached findings in `cacheDir` of pages whose text, options and links' verdicts are
 * unchanged (see the module comment). A page that cannot be linted is
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
  const { inventory, ...rest } = input.lint;
  const config = createHash('sha256').update(`${linterVersion()}\0${JSON.stringify(rest)}\0${inventory ? 'inventory' : 'none'}`).digest('hex');
  const index = inventory ? indexInventory(inventory) : undefined;
  let inventoryKey: string | undefined;
  const entryFile = (p: string) => path.join(input.cacheDir, `${createHash('sha256').update(p).digest('hex').slice(0, 40)}.json`);
  const keyOf = (p: string) => {
    // the configuration file's rules read the whole inventory
    const whole = isSiteConfigFile(p) ? (inventoryKey ??= createHash('sha256').update(JSON.stringify(inventory ?? null)).digest('hex')) : '';
    return createHash('sha256').update(`${config}\0${p}\0${whole}\0${input.files.read(p) ?? ''}`).digest('hex');
  };

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
    if (cached?.key === key && cached.verdicts === verdictsOf(index, p, cached.targets)) pages.push({ path: p, findings: cached.findings });
    else misses.push({ path: p, key });
  }
  const fromCache = pages.length;

  // Batches of pages, as many at once as the pool has workers; the rest wait their turn.
  const workers = Math.max(1, renderPoolSize());
  const size = batchSize(misses.length, workers);
  const batches: { path: string; key: string }[][] = [];
  for (let i = 0; i < misses.length; i += size) batches.push(misses.slice(i, i + size));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      input.signal.throwIfAborted();
      const results = await lintInPool(
        { buildKey: input.buildKey, checkoutDir: input.checkoutDir, docsRoot: input.docsRoot, filePaths: batch.map((m) => m.path), lint: input.lint },
        input.signal,
      );
      for (const [i, result] of results.entries()) {
        if (!result.ok) {
          input.onFailure(result.message);
          continue;
        }
        const miss = batch[i]!;
        pages.push({ path: miss.path, findings: result.findings });
        try {
          const target = entryFile(miss.path);
          const verdicts = verdictsOf(index, miss.path, result.targets);
          const entry: CacheEntry = { key: miss.key, targets: result.targets, verdicts, findings: result.findings };
          fs.writeFileSync(`${target}.tmp`, JSON.stringify(entry));
          fs.renameSync(`${target}.tmp`, target);
        } catch {
          /* a cache that cannot be written only costs time */
        }
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));

  if (input.prune !== false) {
    const wanted = new Set(input.pageFiles.map((p) => path.basename(entryFile(p))));
    for (const name of fs.readdirSync(input.cacheDir)) if (!wanted.has(name)) fs.rmSync(path.join(input.cacheDir, name), { force: true });
  }

  pages.sort((a, b) => byLocale.compare(a.path, b.path));
  const byRule = new Map<string, number>();
  for (const p of pages) for (const f of p.findings) byRule.set(f.ruleId, (byRule.get(f.ruleId) ?? 0) + 1);
  return { pages, counts: [...byRule].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])), fromCache };
}
