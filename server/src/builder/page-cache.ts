import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocsFiles, RenderedPage } from '@quire/shared/docs/types';

/**
 * Bumped by hand when the builder changes what it stores; the renderer's own source is hashed
 * into {@link rendererVersion} automatically.
 */
const CACHE_FORMAT = 1;

const versions = new Map<string, string>();

/** A hash of every `.ts` source file (tests aside) under `dir`, prefixed by `label`; computed once per process. */
function sourcesVersion(label: string, dir: string): string {
  const known = versions.get(label);
  if (known) return known;
  const hash = createHash('sha256').update(`${label}\n`);
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const abs = path.join(d, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) hash.update(`${path.relative(dir, abs)}\n`).update(fs.readFileSync(abs));
    }
  };
  walk(dir);
  const version = hash.digest('hex').slice(0, 16);
  versions.set(label, version);
  return version;
}

/**
 * A fingerprint of the page renderer: the cache format plus a hash of every source file under
 * `shared/src/docs/` (markdown, openapi, config), so any change to the renderer's code invalidates
 * stored pages without anyone remembering to bump a number.
 */
export function rendererVersion(): string {
  const typesFile = createRequire(import.meta.url).resolve('@quire/shared/docs/types');
  return sourcesVersion(`quire-page-cache-${CACHE_FORMAT}`, path.dirname(typesFile));
}

/**
 * A fingerprint of the linter: the renderer's (its MDX parser names syntax errors) plus a hash of
 * every source file under `shared/src/lint/`, for the lint-result cache (lint-pages.ts).
 */
export function linterVersion(): string {
  const linterFile = createRequire(import.meta.url).resolve('@quire/shared/lint/linter');
  return `${rendererVersion()}-${sourcesVersion('quire-lint-cache-1', path.dirname(linterFile))}`;
}

/**
 * A fingerprint of the code that wraps pages into site documents: the renderer's ({@link rendererVersion}),
 * every source file under `shared/src/site/` and this folder (site-writer.ts, assets.ts). An incremental
 * build reuses a previous deployment's page documents only under the same fingerprint (site-writer.ts).
 */
export function siteShellVersion(): string {
  const siteFile = createRequire(import.meta.url).resolve('@quire/shared/site/index');
  const builderDir = path.dirname(fileURLToPath(import.meta.url));
  return `${rendererVersion()}-${sourcesVersion('quire-site-shell-1', path.dirname(siteFile))}-${sourcesVersion('quire-site-writer-1', builderDir)}`;
}

/** One stored page: the key it was stored under, the files it read, and the result. */
interface CacheEntry {
  key: string;
  dependencies: string[];
  page: RenderedPage;
}

/** A content-addressed store of rendered pages for one project: unchanged pages are reused by content hash. */
export interface PageCache {
  /** The stored page when the file, every dependency it read last time and the variables are unchanged. */
  lookup(filePath: string): RenderedPage | undefined;
  /** {@link lookup}, with the key the page is stored under (an incremental build records it, see {@link readStored}). */
  lookupKeyed(filePath: string): { page: RenderedPage; key: string } | undefined;
  /**
   * The stored page when it is still stored under `key` (a key {@link store} or {@link lookupKeyed}
   * gave for the same inputs), without hashing any file: for pages an incremental build knows are
   * unchanged (builder/incremental.ts).
   */
  readStored(filePath: string, key: string): RenderedPage | undefined;
  /** Stores a freshly rendered page under the key of its current inputs. @returns that key */
  store(filePath: string, page: RenderedPage): string;
  /** Deletes entries for files not in `keep` (pages removed from the repository). */
  prune(keep: Iterable<string>): void;
  /** Deletes the entries of these files (pages removed by an incremental build). */
  remove(ids: Iterable<string>): void;
}

/**
 * Opens the page cache in `dir` (`<dataDir>/cache/<projectId>/pages`), keyed by
 * sha256(renderer version + file path + its content + each dependency's path and content + variables).
 * A missing or unreadable entry is a miss; write failures are ignored (the cache is an optimisation).
 * `version` defaults to {@link rendererVersion}.
 */
export function openPageCache(dir: string, files: DocsFiles, variables: Record<string, string>, version = rendererVersion()): PageCache {
  fs.mkdirSync(dir, { recursive: true });
  const vars = JSON.stringify(Object.entries(variables).sort(([a], [b]) => a.localeCompare(b)));
  // Each file is hashed once per build however many pages depend on it (a snippet used by every
  // page), so the work is bounded by the repository's size.
  const digests = new Map<string, string>();
  const digestOf = (p: string) => {
    let d = digests.get(p);
    if (d === undefined) {
      const text = files.read(p);
      d = text === undefined ? 'missing' : createHash('sha256').update(text).digest('hex');
      digests.set(p, d);
    }
    return d;
  };
  const keyOf = (filePath: string, dependencies: string[]) => {
    const h = createHash('sha256').update(`${version}\0${vars}\0${filePath}\0`);
    for (const p of [filePath, ...[...new Set(dependencies)].sort()]) h.update(`${p}\0${digestOf(p)}\0`);
    return h.digest('hex');
  };
  const entryFile = (filePath: string) => path.join(dir, `${createHash('sha256').update(filePath).digest('hex').slice(0, 40)}.json`);

  const readEntry = (filePath: string): CacheEntry | undefined => {
    try {
      return JSON.parse(fs.readFileSync(entryFile(filePath), 'utf8')) as CacheEntry;
    } catch {
      return undefined;
    }
  };
  const lookupKeyed = (filePath: string) => {
    const entry = readEntry(filePath);
    return entry && entry.key === keyOf(filePath, entry.dependencies) ? { page: entry.page, key: entry.key } : undefined;
  };

  return {
    lookup: (filePath) => lookupKeyed(filePath)?.page,
    lookupKeyed,
    readStored(filePath, key) {
      const entry = readEntry(filePath);
      return entry?.key === key ? entry.page : undefined;
    },
    store(filePath, page) {
      const entry: CacheEntry = { key: keyOf(filePath, page.dependencies), dependencies: page.dependencies, page };
      const target = entryFile(filePath);
      try {
        fs.writeFileSync(`${target}.tmp`, JSON.stringify(entry));
        fs.renameSync(`${target}.tmp`, target);
      } catch {
        /* a cache that cannot be written only costs time */
      }
      return entry.key;
    },
    remove(ids) {
      for (const id of ids) fs.rmSync(entryFile(id), { force: true });
    },
    prune(keep) {
      const wanted = new Set([...keep].map((p) => path.basename(entryFile(p))));
      for (const name of fs.readdirSync(dir)) if (!wanted.has(name)) fs.rmSync(path.join(dir, name), { force: true });
    },
  };
}
