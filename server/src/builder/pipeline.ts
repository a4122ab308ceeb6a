import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { fillTitles, flattenPages, pagePathOf, walkPages, type PageLabel } from '@quire/shared/docs/nav/index';
import { isHiddenVisit } from '@quire/shared/docs/nav/walk';
import { DocsError, type BuildWarning, type NavNode, type RenderedPage } from '@quire/shared/docs/types';
import { dataPaths } from '../data-paths';
import { DEFAULT_BUILD_LIMITS, formatBytes, type BuildLimits } from './build-limits';
import { openDocsFiles, type CheckoutFiles } from './checkout-files';
import { AbortError, BuildError, isAbortError, throwIfAborted } from './errors';
import { checkoutRef } from './git';
import { checkLinks } from '@quire/shared/docs/link-check';
import { pageInventory } from '@quire/shared/docs/page-inventory';
import type { LoadedProject } from './load-project';
import type { OperationPage } from './openapi-pages';
import { openPageCache, rendererVersion } from './page-cache';
import { ID_RE } from './prune';
import { loadInPool, renderAll } from './render-pool';
import { lintPages, type LintReport } from './lint-pages';
import type { LinterOptions } from '@quire/shared/lint/linter';
import type { GlossaryEntry } from '@quire/shared/docs/markdown/index';
import type { RenderResult, RenderTask, RenderTaskBase } from './render-task';
import { writeSite, type SitePage } from './site-writer';
import { step, type StepContext } from './step';

/** Input of {@link runBuild} (the build runner's call; brief H7a). */
export interface RunBuildInput {
  projectId: string;
  buildId: string;
  repoUrl: string;
  branch: string;
  commitSha?: string;
  allowFileRepos: boolean;
  /** QUIRE_DATA_DIR: repos under `repos/`, page cache under `cache/`, deployments under `sites/` */
  dataDir: string;
  /** absolute site URL without trailing slash, e.g. `http://acme-docs.localhost:4000` (sitemap, llms.txt) */
  siteUrl: string;
  signal: AbortSignal;
  log: (line: string) => void;
  /** what the build may cost (default {@link DEFAULT_BUILD_LIMITS}) */
  limits?: BuildLimits;
  /** the project's style rules, glossary and linter settings (default: the built-in rules only) */
  lint?: LinterOptions;
  /**
   * A review's change set laid over the checkout before the configuration is read (a preview of
   * base + change set, decisions.md section 9): `content` null deletes the file. Paths were
   * normalised by `@quire/shared/collab/change-set` (relative, no `.`/`..`, nothing under `.git`).
   */
  overlay?: Array<{ path: string; content: string | null }>;
}

/** What a successful build produced. */
export interface RunBuildResult {
  /** the deployment directory `<dataDir>/sites/<projectId>/<buildId>` (manifest.json inside) */
  outDir: string;
  commitSha: string;
  commitMessage: string;
  pages: number;
  warnings: BuildWarning[];
  /** the findings of the lint step, page by page (absent from builders that do not lint, e.g. test stand-ins) */
  lint?: LintReport;
}


/**
 * Builds a project's docs from git into a fresh deployment directory (issue 3), as a script of steps,
 * each logged with its duration: fetching repository → loading configuration → rendering pages →
 * linting pages (findings counted per rule in the log; never a failure) → checking links → writing site. Broken links, missing pages/images, unknown components, duplicate
 * navigation entries are warnings (logged as `warning [kind] file:line message`); a page or config
 * that cannot be parsed fails the build. The caller records the deployment and switches traffic to
 * `outDir`; the previous deployment is never touched here.
 *
 * Repository content is parsed only on worker threads with a bounded heap (render-pool.ts), and the
 * build is bounded by `limits` (build-limits.ts): download and tree size and file count (checked
 * before checkout), page and output size, and a wall-clock budget.
 * @throws BuildError with a message safe to show the user (file, line, reason, or the limit hit)
 * @throws AbortError when `signal` fires; `outDir` is removed on any failure
 */
export async function runBuild(input: RunBuildInput): Promise<RunBuildResult> {
  if (!ID_RE.test(input.projectId) || !ID_RE.test(input.buildId)) throw new BuildError('Invalid project or build id.');
  const limits = input.limits ?? DEFAULT_BUILD_LIMITS;
  const budget = AbortSignal.timeout(limits.timeoutMs);
  const signal = AbortSignal.any([input.signal, budget]);
  const ctx: StepContext = { log: input.log, signal };
  let current = 'starting';
  const run = <T>(name: string, fn: () => Promise<T> | T, summary?: (result: T) => string | undefined) => {
    current = name;
    return step(ctx, name, fn, summary);
  };
  const paths = dataPaths(input.dataDir);
  const outDir = paths.site(input.projectId, input.buildId);
  const warnings: BuildWarning[] = [];
  const warn = (list: BuildWarning[]) => {
    for (const w of list) {
      warnings.push(w);
      input.log(formatWarning(w));
    }
  };
  let done = false;
  try {
    fs.rmSync(outDir, { recursive: true, force: true });
    const checkout = await run(
      'fetching repository',
      () =>
        checkoutRef({
          repoUrl: input.repoUrl,
          branch: input.branch,
          ...(input.commitSha ? { commitSha: input.commitSha } : {}),
          allowFileRepos: input.allowFileRepos,
          cacheDir: paths.repos(input.projectId),
          signal,
          limits,
        }),
      (c) => `${input.branch} @ ${c.commitSha.slice(0, 7)}`,
    );
    warn(checkout.warnings);
    if (input.overlay) {
      const overlay = input.overlay;
      await run('applying change set', () => applyOverlay(checkout.dir, overlay), (n) => `${n} files`);
    }

    const project = await run('loading configuration', () => loadProject(checkout.dir, signal), (p) =>
      `${p.config.source ?? 'no docs.json'}${p.docsRootRel ? ` in ${p.docsRootRel}/` : ''}, ${p.pageFiles.length} page files${p.operations.length ? `, ${p.operations.length} API pages` : ''}`,
    );
    warn(project.warnings);

    const rendered = await run(
      'rendering pages',
      () => renderPages(project, checkout.dir, paths.pageCache(input.projectId), `${input.projectId}/${input.buildId}/${Date.now()}`, signal, limits, glossaryEntries(input.lint)),
      (r) => `${r.pages.length} pages, ${r.fromCache} from cache`,
    );
    warn(rendered.pages.flatMap((p) => p.page.warnings));
    // One inventory for the lint step's navigation rules and the link check: the same verdicts.
    const inventory = pageInventory({ pages: rendered.pages.map((p) => p.path), files: project.files, redirects: project.config.redirects });

    const linted = await run(
      'linting pages',
      () =>
        lintPages({
          pageFiles: project.pageFiles,
          files: project.files,
          checkoutDir: checkout.dir,
          docsRoot: project.files.root,
          cacheDir: paths.lintCache(input.projectId),
          buildKey: `${input.projectId}/${input.buildId}/lint`,
          lint: { ...input.lint, inventory },
          signal,
          onFailure: (message) => input.log(`lint: ${message}`),
        }),
      (r) => `${r.counts.reduce((n, [, c]) => n + c, 0)} findings on ${r.pages.filter((p) => p.findings.length > 0).length} of ${r.pages.length} pages, ${r.fromCache} from cache`,
    );
    for (const [ruleId, count] of linted.counts) input.log(`  lint ${ruleId}: ${count}`);

    await run('checking links', () => {
      const found = checkLinks(rendered.pages, inventory, (f) => project.files.read(f));
      warn(found);
      return found.length;
    }, (n) => `${n} warnings`);

    const site = assembleSite(project, rendered.pages);
    const written = await run(
      'writing site',
      () =>
        writeSite({
          outDir,
          buildId: input.buildId,
          projectId: input.projectId,
          site: project.config,
          nav: site.nav,
          pages: site.pages,
          home: site.home,
          files: project.files,
          siteUrl: input.siteUrl.replace(/\/+$/, ''),
          ...editBase(input.repoUrl, input.branch, project.docsRootRel),
        }),
      (w) => `${w.fileCount} files`,
    );
    warn(written.warnings);
    throwIfAborted(signal);
    done = true;
    return { outDir, commitSha: checkout.commitSha, commitMessage: checkout.commitMessage, pages: site.pages.length, warnings, lint: linted };
  } catch (err) {
    if (budget.aborted && !input.signal.aborted) {
      throw new BuildError(`The build ran out of its time budget of ${Math.round(limits.timeoutMs / 1000)} s while ${current} (QUIRE_BUILD_TIMEOUT_SECONDS) and was stopped.`);
    }
    throw toBuildFailure(err, input.signal);
  } finally {
    if (!done) fs.rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * Writes a change set into a checkout (`content` null deletes). A symbolic link met on the way is
 * replaced by a real folder or file, as git does when a commit puts a file there, so nothing is
 * ever written outside the checkout. @returns the number of files changed.
 * @throws BuildError for a path that is not a plain relative path (defence in depth).
 */
function applyOverlay(checkoutDir: string, overlay: NonNullable<RunBuildInput['overlay']>): number {
  const root = path.resolve(checkoutDir);
  for (const change of overlay) {
    const segments = change.path.split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..' || s.toLowerCase() === '.git') || change.path.includes('\\')) {
      throw new BuildError(`The change set holds a path that is not a plain repository path: ${JSON.stringify(change.path)}.`);
    }
    let dir = root;
    let absent = false;
    for (const segment of segments.slice(0, -1)) {
      dir = path.join(dir, segment);
      const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
      if (stat && !stat.isDirectory()) {
        if (change.content === null) {
          absent = true; // a file or link where a folder would be: nothing of this path to delete
          break;
        }
        fs.rmSync(dir, { force: true });
      }
      if (change.content !== null && !fs.existsSync(dir)) fs.mkdirSync(dir);
    }
    if (absent) continue;
    const target = path.join(root, ...segments);
    const stat = fs.lstatSync(target, { throwIfNoEntry: false });
    if (stat?.isDirectory()) fs.rmSync(target, { recursive: true, force: true });
    else if (stat) fs.rmSync(target, { force: true });
    if (change.content !== null) fs.writeFileSync(target, change.content);
  }
  return overlay.length;
}

/** The glossary terms of the linter options that have a definition to show on the site. */
function glossaryEntries(lint: LinterOptions | undefined): GlossaryEntry[] {
  return (lint?.glossary ?? []).filter((g) => g.definition.trim()).map((g) => ({ term: g.term, definition: g.definition, caseSensitive: g.caseSensitive }));
}

/** The loaded project plus the file access the main thread needs (cache keys, links, copying). */
interface Project extends LoadedProject {
  files: CheckoutFiles;
}

/**
 * Loads the project on a worker thread (its config, `$ref`s and OpenAPI files are repository
 * content), then indexes the docs root here for cache keys, link checks and copying.
 * @throws BuildError naming the file and line when the configuration cannot be used
 */
async function loadProject(checkoutDir: string, signal: AbortSignal): Promise<Project> {
  const loaded = await loadInPool(checkoutDir, signal);
  if (!loaded.ok) {
    if (!loaded.file) throw new BuildError(loaded.message);
    const [message, file, line] = describeAt(loaded.file, loaded.line, loaded.message);
    throw new BuildError(message, file, line);
  }
  const files = openDocsFiles(checkoutDir, loaded.project.docsRoot, loaded.project.listedFiles);
  return { ...loaded.project, files, warnings: [...files.warnings, ...loaded.project.warnings] };
}

/** A rendered page before the site is assembled. */
interface RenderedEntry {
  path: string;
  filePath?: string;
  page: RenderedPage;
  /** for OpenAPI pages */
  operation?: OperationPage;
}

/**
 * Renders every page file and OpenAPI page, reusing cached pages whose inputs are unchanged;
 * the rest go to the worker pool. The first page that cannot be parsed fails the build.
 */
async function renderPages(
  project: Project,
  checkoutDir: string,
  cacheDir: string,
  buildKey: string,
  signal: AbortSignal,
  limits: Pick<BuildLimits, 'maxPageBytes' | 'maxOutputBytes'>,
  glossary: GlossaryEntry[],
): Promise<{ pages: RenderedEntry[]; fromCache: number }> {
  // The glossary changes every page that uses a term: it is part of the cache key.
  const version = glossary.length ? `${rendererVersion()}-${createHash('sha256').update(JSON.stringify(glossary)).digest('hex').slice(0, 16)}` : rendererVersion();
  const cache = openPageCache(cacheDir, project.files, project.config.variables, version);
  const base: RenderTaskBase = {
    buildKey,
    checkoutDir,
    docsRoot: project.files.root,
    variables: project.config.variables,
    openapi: project.config.openapi,
    glossary,
  };
  const byPath = new Map<string, RenderedEntry>();
  const tasks: RenderTask[] = [];
  const cacheIds: string[] = [];
  let fromCache = 0;
  // One page per page path: `a.mdx` wins over `a.md` (PAGE_EXTENSIONS order).
  const chosen = new Map<string, string>();
  for (const filePath of project.pageFiles) {
    const pagePath = pagePathOf(filePath)!;
    const prev = chosen.get(pagePath);
    if (!prev || (prev.endsWith('.md') && filePath.endsWith('.mdx'))) chosen.set(pagePath, filePath);
  }
  let looked = 0;
  for (const [pagePath, filePath] of chosen) {
    // Cache keys hash repository files: let the server answer requests between batches.
    if (++looked % 32 === 0) await yieldToEventLoop();
    cacheIds.push(filePath);
    const hit = cache.lookup(filePath);
    if (hit) {
      fromCache++;
      byPath.set(pagePath, { path: pagePath, filePath, page: hit });
    } else tasks.push({ ...base, kind: 'page', filePath });
  }
  const opsByRef = new Map<string, OperationPage>();
  for (const op of project.operations) {
    if (chosen.has(op.path)) continue; // a real page of the same path wins
    const id = `openapi:${op.ref}`;
    cacheIds.push(id);
    opsByRef.set(op.ref, op);
    const hit = cache.lookup(id);
    if (hit) {
      fromCache++;
      byPath.set(op.path, { path: op.path, page: hit, operation: op });
    } else tasks.push({ ...base, kind: 'operation', ref: op.ref, pagePath: op.path });
  }

  let failure: BuildError | undefined;
  let outputBytes = 0;
  for (const entry of byPath.values()) outputBytes += entry.page.html.length;
  await renderAll(
    tasks,
    (task, rendered: RenderResult) => {
      const result = checkPageSize(rendered, outputBytes, limits);
      if (!result.ok) {
        failure ??= pageFailure(result, task);
        return;
      }
      outputBytes += result.page.html.length;
      if (task.kind === 'page') {
        cache.store(task.filePath, result.page);
        byPath.set(pagePathOf(task.filePath)!, { path: pagePathOf(task.filePath)!, filePath: task.filePath, page: result.page });
      } else {
        const op = opsByRef.get(task.ref)!;
        cache.store(`openapi:${task.ref}`, result.page);
        byPath.set(op.path, { path: op.path, page: result.page, operation: op });
      }
    },
    signal,
  );
  throwIfAborted(signal);
  if (failure) throw failure;
  cache.prune(cacheIds);
  const pages = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { pages, fromCache };
}

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

/** Sidebar titles, hidden flags, gated pages and the home page. */
function assembleSite(project: Project, rendered: RenderedEntry[]): { nav: NavNode[]; pages: SitePage[]; home: string } {
  const labels = new Map<string, PageLabel>();
  for (const r of rendered) {
    const fm = r.page.frontmatter;
    labels.set(r.path, {
      title: r.page.title,
      ...(typeof fm.sidebarTitle === 'string' ? { sidebarTitle: fm.sidebarTitle } : {}),
      ...(typeof fm.icon === 'string' ? { icon: fm.icon } : {}),
      ...(fm.hidden === true ? { hidden: true } : {}),
      ...(r.operation ? { method: r.operation.method } : {}),
    });
  }
  const nav = fillTitles(project.nav, labels);
  const inNav = new Set<string>();
  const navHidden = new Set<string>();
  for (const visit of walkPages(nav)) {
    if (isHiddenVisit(visit)) navHidden.add(visit.node.path);
    else inNav.add(visit.node.path);
  }
  const pages: SitePage[] = rendered.map((r) => {
    const fm = r.page.frontmatter;
    const audience = typeof fm.audience === 'string' ? [fm.audience] : Array.isArray(fm.audience) ? fm.audience.filter((a): a is string => typeof a === 'string') : [];
    const hidden = fm.hidden === true || fm.noindex === true || r.operation?.hidden === true || !inNav.has(r.path);
    return { path: r.path, ...(r.filePath ? { filePath: r.filePath } : {}), page: r.page, hidden, ...(audience.length ? { audience } : {}) };
  });
  const exists = new Set(pages.map((p) => p.path));
  const home = exists.has('index') ? 'index' : (flattenPages(nav).find((p) => exists.has(p.path) && !navHidden.has(p.path))?.path ?? pages[0]!.path);
  return { nav, pages, home };
}

/** `editBaseUrl` for GitHub repositories: `https://github.com/o/r/edit/<branch>/<docs root>/`. */
function editBase(repoUrl: string, branch: string, docsRootRel: string): { editBaseUrl?: string } {
  const m = /^(?:https:\/\/github\.com\/|git@github\.com:|ssh:\/\/git@github\.com\/)([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(repoUrl.trim());
  if (!m) return {};
  return { editBaseUrl: `https://github.com/${m[1]}/${m[2]}/edit/${branch}/${docsRootRel ? `${docsRootRel}/` : ''}` };
}

/** The log line of a warning: `warning [broken-link] guides/setup.mdx:12 /missing-page`. */
export function formatWarning(w: BuildWarning): string {
  const where = w.file ? ` ${w.file}${w.line ? `:${w.line}` : ''}` : '';
  return `warning [${w.kind}]${where} ${w.message}`;
}

/** Maps any failure to what runBuild promises: AbortError, or a BuildError safe to show. */
function toBuildFailure(err: unknown, signal: AbortSignal): Error {
  if (signal.aborted || isAbortError(err)) return err instanceof AbortError ? err : new AbortError();
  if (err instanceof BuildError) return err;
  if (err instanceof DocsError || (err instanceof Error && err.name === 'DocsError')) {
    const e = err as DocsError;
    const [message, file, line] = describeAt(e.file, e.line, e.field && !e.message.includes(e.field) ? `${e.field}: ${e.message}` : e.message);
    return new BuildError(message, file, line);
  }
  const failure = new BuildError('The build failed because of an internal error; the previous deployment keeps serving.');
  (failure as Error & { cause?: unknown }).cause = err;
  return failure;
}
