import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { choosePageFiles, sitePages } from '@quire/shared/docs/site-page';
import type { BuildWarning, RenderedPage } from '@quire/shared/docs/types';
import { formatBytes, type BuildLimits } from './build-limits';
import type { BuildState, StatePage } from './build-state';
import { pagesToRender } from './incremental';
import type { PageOutputKeys } from './site-writer';
import { BuildError, throwIfAborted } from './errors';
import type { OperationPage } from '@quire/shared/docs/config/index';
import type { PageCache } from './page-cache';
import { renderAll } from './render-pool';
import type { RenderResult, RenderTask, RenderTaskBase } from './render-task';

/**
 * One page of a build: rendered in this build (`page`, possibly read from the page cache), or kept
 * from the previous build's state (`kept`) when an incremental build did not render it again.
 */
export interface PageEntry {
  /** page path (`guides/setup`) */
  path: string;
  /** docs-root file path; absent for generated OpenAPI pages */
  filePath?: string;
  operation?: OperationPage;
  page?: RenderedPage;
  kept?: StatePage;
  /** key of the page in the page cache, when it is stored there */
  cacheKey?: string;
}

/** What the site and the link check need of a page, rendered or kept. */
export interface PageFacts {
  title: string;
  description?: string;
  frontmatter: Record<string, unknown>;
  links: string[];
  assets: string[];
  dependencies: string[];
  warnings: BuildWarning[];
  htmlLength: number;
}

/** The {@link PageFacts} of an entry. */
export function factsOf(entry: PageEntry): PageFacts {
  const p = entry.page;
  if (p) {
    return {
      title: p.title,
      ...(p.description ? { description: p.description } : {}),
      frontmatter: p.frontmatter,
      links: p.links,
      assets: p.assets,
      dependencies: p.dependencies,
      warnings: p.warnings,
      htmlLength: p.html.length,
    };
  }
  return entry.kept!; // a StatePage holds every fact
}

/** The id of a page in the page cache: its file path, or `openapi:<ref>` for a generated page. */
export function cacheIdOf(entry: Pick<PageEntry, 'filePath' | 'operation'>): string {
  return entry.filePath ?? `openapi:${entry.operation!.ref}`;
}

/** What {@link renderPages} needs. */
export interface RenderPagesInput {
  /** the pages to render (file pages with `filePath`, generated ones with `operation`) */
  pages: Array<Pick<PageEntry, 'path' | 'filePath' | 'operation'>>;
  cache: PageCache;
  /** look pages up in the cache first (false: render every one, `force`) */
  useCache: boolean;
  base: RenderTaskBase;
  signal: AbortSignal;
  limits: Pick<BuildLimits, 'maxPageBytes' | 'maxOutputBytes'>;
  /** rendered HTML already counted against `maxOutputBytes` (pages kept from the previous build), UTF-16 units */
  outputBytes: number;
}

/**
 * Renders `pages`, reusing cached pages whose inputs are unchanged (unless `useCache` is false);
 * the rest go to the worker pool and into the cache. The first page that cannot be parsed fails the build.
 * @returns the rendered entries (in no particular order) and how many came from the cache
 * @throws BuildError naming the file (and line) of a page that cannot be rendered or is too large
 */
export async function renderPages(input: RenderPagesInput): Promise<{ entries: PageEntry[]; fromCache: number }> {
  const { cache, base, signal, limits } = input;
  const entries: PageEntry[] = [];
  const tasks: RenderTask[] = [];
  const byTask = new Map<RenderTask, Pick<PageEntry, 'path' | 'filePath' | 'operation'>>();
  let fromCache = 0;
  let outputBytes = input.outputBytes;
  let looked = 0;
  for (const want of input.pages) {
    // Cache keys hash repository files: let the server answer requests between batches.
    if (++looked % 32 === 0) await yieldToEventLoop();
    const hit = input.useCache ? cache.lookupKeyed(cacheIdOf(want)) : undefined;
    if (hit) {
      fromCache++;
      outputBytes += hit.page.html.length;
      entries.push({ ...want, page: hit.page, cacheKey: hit.key });
      continue;
    }
    const task: RenderTask = want.operation
      ? { ...base, kind: 'operation', ref: want.operation.ref, pagePath: want.path }
      : { ...base, kind: 'page', filePath: want.filePath! };
    tasks.push(task);
    byTask.set(task, want);
  }

  let failure: BuildError | undefined;
  await renderAll(
    tasks,
    (task, rendered: RenderResult) => {
      const result = checkPageSize(rendered, outputBytes, limits);
      if (!result.ok) {
        failure ??= pageFailure(result, task);
        return;
      }
      outputBytes += result.page.html.length;
      const want = byTask.get(task)!;
      entries.push({ ...want, page: result.page, cacheKey: cache.store(cacheIdOf(want), result.page) });
    },
    signal,
  );
  throwIfAborted(signal);
  if (failure) throw failure;
  return { entries, fromCache };
}

/** What {@link collectPages} needs. */
export interface CollectPagesInput {
  project: { pageFiles: readonly string[]; operations: readonly OperationPage[] };
  cache: PageCache;
  base: RenderTaskBase;
  signal: AbortSignal;
  limits: Pick<BuildLimits, 'maxPageBytes' | 'maxOutputBytes'>;
  /** render every page, the cache unread (`force`) */
  force: boolean;
  /** an incremental build: the changed docs files and the previous build's state (incremental.ts) */
  targeted?: { plan: { changed: ReadonlySet<string> }; state: BuildState };
}

/**
 * Every page of the site, sorted by path: one per page path (choosePageFiles) plus the generated
 * OpenAPI pages. A full build renders each (page cache first unless `force`) and prunes the cache
 * to them; an incremental one renders only the pages the changes affect (incremental.ts
 * `pagesToRender`, and OpenAPI pages that differ) and keeps the others from the previous build's state.
 * @returns the entries, how many came from the cache and how many were kept
 * @throws BuildError as {@link renderPages}
 */
export async function collectPages(input: CollectPagesInput): Promise<{ entries: PageEntry[]; fromCache: number; kept: number }> {
  const { project, cache, targeted } = input;
  const chosen = choosePageFiles(project.pageFiles);
  const all: Array<Pick<PageEntry, 'path' | 'filePath' | 'operation'>> = sitePages(project.pageFiles, project.operations);
  let wants = all;
  const kept: PageEntry[] = [];
  if (targeted) {
    const toRender = pagesToRender(chosen, targeted.state, targeted.plan.changed);
    const before = new Map(targeted.state.pages.map((p) => [p.path, p]));
    wants = [];
    for (const want of all) {
      const prev = before.get(want.path);
      const same = want.operation
        ? prev?.operation !== undefined && JSON.stringify(prev.operation) === JSON.stringify(want.operation)
        : prev !== undefined && !toRender.has(want.path);
      if (prev && same) kept.push({ ...want, kept: prev, ...(prev.cacheKey ? { cacheKey: prev.cacheKey } : {}) });
      else wants.push(want);
    }
    const now = new Set(all.map((p) => p.path));
    cache.remove(targeted.state.pages.filter((p) => !now.has(p.path)).map(cacheIdOf));
  }
  const outputBytes = kept.reduce((n, e) => n + e.kept!.htmlLength, 0);
  const rendered = await renderPages({
    pages: wants,
    cache,
    useCache: !input.force,
    base: input.base,
    signal: input.signal,
    limits: input.limits,
    outputBytes,
  });
  if (!targeted) cache.prune(all.map(cacheIdOf));
  return { entries: byPath([...kept, ...rendered.entries]), fromCache: rendered.fromCache, kept: kept.length };
}

/**
 * Gives every kept entry its rendered page again (when the site shell changed, every page document
 * is rendered anew): from the page cache under the key the previous build recorded, else rendered.
 * @returns the entries, sorted by path, and how many were read or rendered
 */
export async function hydrate(
  entries: readonly PageEntry[],
  cache: PageCache,
  options: Pick<RenderPagesInput, 'base' | 'signal' | 'limits'>,
): Promise<{ entries: PageEntry[]; read: number; rendered: number }> {
  const out: PageEntry[] = [];
  const missing: PageEntry[] = [];
  let outputBytes = 0;
  let looked = 0;
  let read = 0;
  for (const e of entries) {
    if (++looked % 32 === 0) await yieldToEventLoop();
    if (e.page) {
      out.push(e);
      outputBytes += e.page.html.length;
      continue;
    }
    const page = e.cacheKey ? cache.readStored(cacheIdOf(e), e.cacheKey) : undefined;
    if (page) {
      out.push({ ...e, page });
      outputBytes += page.html.length;
      read++;
    } else missing.push(e);
  }
  const again = await renderPages({
    ...options,
    pages: missing.map(({ path, filePath, operation }) => ({ path, ...(filePath ? { filePath } : {}), ...(operation ? { operation } : {}) })),
    cache,
    useCache: true,
    outputBytes,
  });
  const keptOf = new Map(missing.map((e) => [e.path, e.kept!]));
  return { entries: byPath([...out, ...again.entries.map((e) => ({ ...e, kept: keptOf.get(e.path)! }))]), read, rendered: again.entries.length };
}


/**
 * What the state keeps of a page of this build: the previous build's record itself when the page
 * was kept with the same keys and link warnings.
 */
export function statePage(entry: PageEntry, keys: PageOutputKeys, linkWarnings: BuildWarning[]): StatePage {
  const k = entry.kept;
  if (
    k &&
    !entry.page &&
    k.inputKey === keys.inputKey &&
    k.markdownHash === keys.markdownHash &&
    (k.linkWarnings === linkWarnings || (k.linkWarnings.length === 0 && linkWarnings.length === 0))
  ) {
    return k;
  }
  const f = factsOf(entry);
  return {
    path: entry.path,
    ...(entry.filePath ? { filePath: entry.filePath } : {}),
    ...(entry.operation ? { operation: entry.operation } : {}),
    title: f.title,
    ...(f.description ? { description: f.description } : {}),
    frontmatter: f.frontmatter,
    links: f.links,
    assets: f.assets,
    dependencies: f.dependencies,
    warnings: f.warnings,
    linkWarnings,
    htmlLength: f.htmlLength,
    ...(entry.cacheKey ? { cacheKey: entry.cacheKey } : {}),
    inputKey: keys.inputKey,
    markdownHash: keys.markdownHash,
  };
}

const byPath = (entries: PageEntry[]) => entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

/**
 * Turns a rendered page that exceeds `maxPageBytes`, or would take the build's output past
 * `maxOutputBytes`, into a failure naming the limit (sizes counted in UTF-16 code units of HTML).
 */
function checkPageSize(result: RenderResult, outputBytes: number, limits: Pick<BuildLimits, 'maxPageBytes' | 'maxOutputBytes'>): RenderResult {
  if (!result.ok) return result;
  const size = result.page.html.length;
  if (size > limits.maxPageBytes) {
    return { ok: false, message: `the rendered page is ${formatBytes(size)}; a page may be at most ${formatBytes(limits.maxPageBytes)}` };
  }
  if (outputBytes + size > limits.maxOutputBytes) {
    return { ok: false, message: `the site's rendered pages pass ${formatBytes(limits.maxOutputBytes)}, the most one build may write` };
  }
  return result;
}

function pageFailure(result: Extract<RenderResult, { ok: false }>, task: RenderTask): BuildError {
  const file = result.file ?? (task.kind === 'page' ? task.filePath : undefined);
  if (!file) return new BuildError(`${task.kind === 'operation' ? `${task.ref}: ` : ''}${result.message}`);
  return new BuildError(...describeAt(file, result.line, result.message));
}

/**
 * `file:line: reason` for a page or config error: the reason without a leading `file:line:col:` the
 * renderer may already have put there; the line from the error, or from a `(5:1-5:17)` position in
 * the reason when the error carries none.
 */
export function describeAt(file: string, line: number | undefined, message: string): [string, string, number | undefined] {
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const reason = message.replace(new RegExp(`^${escaped}(?::\\d+)*:\\s*`), '');
  const at = line ?? Number(/\((\d+):\d+(?:-\d+:\d+)?\)/.exec(reason)?.[1] ?? NaN);
  const known = Number.isFinite(at) && at > 0 ? at : undefined;
  return [`${file}${known ? `:${known}` : ''}: ${reason}`, file, known];
}
