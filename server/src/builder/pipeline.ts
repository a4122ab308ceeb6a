import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { layoutSite } from '@quire/shared/site/site-layout';
import { DocsError, type BuildWarning, type NavNode, type SiteConfig } from '@quire/shared/docs/types';
import { pageInventory } from '@quire/shared/docs/page-inventory';
import { editUrlTemplate } from '@quire/shared/docs/edit-link';
import type { LinterOptions } from '@quire/shared/lint/linter';
import type { GlossaryEntry } from '@quire/shared/docs/markdown/index';
import { BUILTIN_USER_FIELDS, userFieldsOf } from '@quire/shared/site/personalisation';
import { changeEntryBytes, type FileChange } from '@quire/shared/collab/change-set';
import { dataPaths } from '../data-paths';
import { DEFAULT_BUILD_LIMITS, type BuildLimits } from './build-limits';
import { BUILD_STATE_FORMAT, readBuildState, writeBuildState, type BuildStateMemory } from './build-state';
import { changedPathsBetween } from './changed-paths';
import { openDocsFiles, type CheckoutFiles } from './checkout-files';
import { AbortError, BuildError, isAbortError, throwIfAborted } from './errors';
import { checkoutRef } from './git';
import { docsPathsOf, inventoryOf, linkTargetsByTarget, pagesWithChangedVerdicts, planChanges, type ChangePlan } from './incremental';
import { lintPages, type LintReport } from './lint-pages';
import type { LoadedProject } from './load-project';
import { linterVersion, openPageCache, rendererVersion } from './page-cache';
import { checkPageLinks, knownFindings, type PageLinkWarnings } from './page-checks';
import { datePages, type LastChangedReader } from './page-dates';
import { ID_RE } from './prune';
import { collectPages, describeAt, factsOf, hydrate, statePage, type PageEntry } from './render-pages';
import { linkInPool, loadInPool, warmRenderPool } from './render-pool';
import type { RenderTaskBase } from './render-task';
import { CarriedRecordsError, writeSearchIndex, writeSearchIndexDelta } from './search-index';
import { CarriedPageError, siteShellKey, writeSiteFiles, type PreviousOutput, type SitePage } from './site-writer';
import { step, type StepContext } from './step';

export { describeAt };

/** Input of {@link runBuild} (the build runner's call). */
export interface RunBuildInput {
  projectId: string;
  buildId: string;
  repoUrl: string;
  branch: string;
  commitSha?: string;
  allowFileRepos: boolean;
  /** QUIRE_ALLOW_PRIVATE_NETWORK: the repository may be on a loopback, private or link-local host (default false) */
  allowPrivateNetwork?: boolean;
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
   * base + change set, decisions.md section 9): `content` null deletes the file; `encoding`
   * `base64` writes the bytes it encodes (images, PDFs), else the text as UTF-8. Paths were
   * normalised by `@quire/shared/collab/change-set` (relative, no `.`/`..`, nothing under `.git`).
   */
  overlay?: FileChange[];
  /** the live deployment of the channel this build replaces (production, or the same preview), when there is one */
  previous?: {
    commitSha: string;
    /** absolute local directory of its files (local store only; absent with S3) */
    localDir?: string;
  };
  /**
   * changed paths reported by a push webhook (repository-relative); null/absent: unknown (compute
   * from git when the previous commit is known, else rebuild everything)
   */
  changedFiles?: string[] | null;
  /** rebuild everything, even an unchanged commit */
  force?: boolean;
  /**
   * An incremental build may give the new deployment the live deployment's search index with a
   * delta of the pages it rendered laid over it (search-index.ts `writeSearchIndexDelta`) instead of
   * indexing every page. Default false: the whole index is always built.
   */
  carrySearchIndex?: boolean;
  /**
   * A documentation version build (interface-spec.md "Versioning > Documentation versions" rules
   * 3-4): the site is served under `basePath` (`/v1`: every link, asset and the page bodies'
   * root-relative links carry it; `siteUrl` should end with it too) and renders with `versioning`,
   * the default branch's, in place of its own, so every version's switcher lists the same versions.
   */
  version?: { basePath: string; versioning: SiteConfig['versioning'] };
  /**
   * The states of the builds this process ran last (build-state.ts; kept on the app context): the
   * next build of a project starts from memory instead of reading its predecessor's state from disk.
   */
  stateMemory?: BuildStateMemory;
  /**
   * When each repository file last changed in the history of a commit (the build runner passes the
   * git read cache's `lastChangedAt`): pages without frontmatter `lastUpdated` show that date.
   * Absent: no dates from git (page-dates.ts).
   */
  lastChanged?: LastChangedReader;
}

/** What a successful build produced. */
export interface RunBuildResult {
  /** the deployment directory `<dataDir>/sites/<projectId>/<buildId>` (manifest.json inside); absent on disk with `noChanges` */
  outDir: string;
  commitSha: string;
  commitMessage: string;
  /** pages of the site (0 with `noChanges`: nothing was built) */
  pages: number;
  warnings: BuildWarning[];
  /** the findings of the lint step, page by page (absent from builders that do not lint, e.g. test stand-ins) */
  lint?: LintReport;
  /**
   * The fetched commit is the one `previous` was built from (and the build was not forced and has
   * no overlay): nothing was built, the live deployment stays.
   */
  noChanges?: true;
}

/**
 * Builds a project's docs from git into a fresh deployment directory (decisions.md section 4), as a script
 * of steps, each logged with its duration: fetching repository → (applying change set) → (reading the
 * previous build → comparing commits) → loading configuration → rendering pages → assembling navigation →
 * (reading unchanged pages) → (dating pages) → comparing links (the page inventory, and which pages' link
 * verdicts changed) → linting pages (findings counted per rule in the log; never a failure) and checking
 * links, while writing site and then indexing search go on alongside → saving build state. Broken
 * links, missing pages/images, unknown components, duplicate navigation entries are warnings (logged as
 * `warning [kind] file:line message`); a page or config that cannot be parsed fails the build. The caller
 * records the deployment and switches traffic to `outDir`; the previous deployment is never touched here.
 *
 * Incremental builds (incremental.ts): unless `force`, a commit equal to `previous.commitSha` (and no
 * overlay) returns at once with `noChanges`. When `previous.localDir` holds the live deployment and
 * its build left its state (build-state.ts), the changed paths come from `git diff` between the two
 * commits (or `changedFiles` when the previous commit is not in the repository cache); a change
 * incremental.ts can judge re-renders only the pages it affects and relints only those (plus pages
 * whose links' verdicts changed), the rest coming from the previous build; a full build still takes
 * from the lint cache the findings of pages whose text and links' verdicts are unchanged (lint-pages.ts).
 * Either way, with a previous deployment on local disk, files whose content is unchanged are hard links to it
 * (site-writer.ts), never written again. `force` renders, lints and writes everything anew.
 *
 * Repository content is parsed only on worker threads with a bounded heap (render-pool.ts), and the
 * build is bounded by `limits` (build-limits.ts): download and tree size and file count (checked
 * before checkout), page and output size, and a wall-clock budget.
 * @throws BuildError with a message safe to show the user (file, line, reason, or the limit hit)
 * @throws AbortError when `signal` fires; `outDir` is removed on any failure
 */
export async function runBuild(input: RunBuildInput): Promise<RunBuildResult> {
  try {
    return await runBuildOnce(input);
  } catch (err) {
    // The live deployment's files could not be shared (a file missing from it, a broken state):
    // once more without starting from it, so such damage never blocks a project's builds.
    if (!(err instanceof ReuseFailed) || input.signal.aborted) throw err;
    input.log(`sharing files with the live deployment failed (${err.message}); building everything anew`);
    return runBuildOnce({ ...input, previous: undefined, changedFiles: null });
  }
}

/** The previous deployment's files or state could not be reused (see {@link runBuild}). */
class ReuseFailed extends Error {}

async function runBuildOnce(input: RunBuildInput): Promise<RunBuildResult> {
  const started = performance.now();
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
    warmRenderPool();
    // The previous build's state is read while git fetches (it never rejects).
    const localDir = input.force ? undefined : input.previous?.localDir;
    const reading = localDir ? readBuildState(input.dataDir, input.projectId, localDir, input.previous!.commitSha, input.stateMemory) : undefined;
    const checkout = await run(
      'fetching repository',
      () =>
        checkoutRef({
          repoUrl: input.repoUrl,
          branch: input.branch,
          ...(input.commitSha ? { commitSha: input.commitSha } : {}),
          allowFileRepos: input.allowFileRepos,
          allowPrivateNetwork: input.allowPrivateNetwork ?? false,
          cacheDir: paths.repos(input.projectId),
          signal,
          limits,
        }),
      (c) => `${input.branch} @ ${c.commitSha.slice(0, 7)}`,
    );
    warn(checkout.warnings);
    const previous = input.previous;
    if (!input.force && !input.overlay && previous && checkout.commitSha === previous.commitSha) {
      input.log(`no changes: ${checkout.commitSha.slice(0, 7)} is the commit the live deployment was built from; nothing to build (force rebuilds it)`);
      done = true;
      return { outDir, commitSha: checkout.commitSha, commitMessage: checkout.commitMessage, pages: 0, warnings, noChanges: true };
    }
    if (input.overlay) {
      const overlay = input.overlay;
      await run('applying change set', () => applyOverlay(checkout.dir, overlay), (n) => `${n} files`);
    }

    // What the previous build left, and what changed since.
    const glossary = glossaryEntries(input.lint);
    const renderKey = glossary.length ? `${rendererVersion()}-${sha256(JSON.stringify(glossary)).slice(0, 16)}` : rendererVersion();
    const overlayHashes = Object.fromEntries((input.overlay ?? []).map((c) => [c.path, c.content === null ? null : sha256(changeEntryBytes(c)!)]));
    const state = reading
      ? await run('reading the previous build', () => reading, (s) => (s ? `${s.pages.length} pages of ${path.basename(localDir!)}` : `${path.basename(localDir!)} left no build state`))
      : undefined;
    let changedPaths: string[] | null = null;
    let plan: ChangePlan;
    if (input.force) plan = { kind: 'full', reason: 'forced' };
    else if (!previous) plan = { kind: 'full', reason: 'no live deployment to start from' };
    else if (!previous.localDir) plan = { kind: 'full', reason: 'the live deployment is not on local disk' };
    else if (!state) plan = { kind: 'full', reason: 'the live deployment left no build state' };
    else {
      changedPaths = await run('comparing commits', () => changedPathsBetween(checkout.dir, previous.commitSha, checkout.commitSha, signal), (c) =>
        c ? `${c.length} changed files since ${previous.commitSha.slice(0, 7)}` : `${previous.commitSha.slice(0, 7)} is not in the repository cache${input.changedFiles ? '; using the webhook\'s list' : ''}`,
      );
      changedPaths ??= input.changedFiles ? [...input.changedFiles] : null;
      if (changedPaths) {
        for (const p of new Set([...Object.keys(state.overlay), ...Object.keys(overlayHashes)])) {
          if (state.overlay[p] !== overlayHashes[p]) changedPaths.push(p);
        }
      }
      if (!changedPaths) plan = { kind: 'full', reason: 'the changed files are unknown' };
      else if (state.renderKey !== renderKey) plan = { kind: 'full', reason: 'the renderer or the glossary changed' };
      else plan = planChanges(changedPaths, state, checkout.dir);
    }
    if (plan.kind === 'full') input.log(`full build: ${plan.reason}`);

    const reuse = plan.kind === 'targeted' && !plan.reload ? state! : undefined;
    const project = await run(
      'loading configuration',
      () => (reuse ? reuseProject(reuse.project, checkout.dir) : loadProject(checkout.dir, signal)),
      (p) =>
        `${p.config.source ?? 'no docs.json'}${p.docsRootRel ? ` in ${p.docsRootRel}/` : ''}, ${p.pageFiles.length} page files${p.operations.length ? `, ${p.operations.length} API pages` : ''}${reuse ? ', unchanged since the previous build' : ''}`,
    );
    warn(project.warnings);
    if (plan.kind === 'targeted' && renderInputs(project) !== renderInputs(state!.project)) {
      plan = { kind: 'full', reason: 'the docs folder, variables or OpenAPI pages changed' };
      input.log(`full build: ${plan.reason}`);
    }
    /** changed docs files when the changed paths are known and the docs folder stayed (static files not in it are shared) */
    const changedDocs = plan.kind === 'targeted' ? plan.changed : changedPaths && state && state.project.docsRootRel === project.docsRootRel ? docsPathsOf(changedPaths, state, project.docsRootRel) : undefined;

    // the declared user fields change how pages render: part of the page cache's key (and of renderInputs)
    const userFields = userFieldsOf(project.config.raw);
    const cacheKey = userFields.length > BUILTIN_USER_FIELDS.length ? `${renderKey}-${sha256(JSON.stringify(userFields)).slice(0, 16)}` : renderKey;
    const cache = openPageCache(paths.pageCache(input.projectId), project.files, project.config.variables, cacheKey);
    const base: RenderTaskBase = {
      buildKey: `${input.projectId}/${input.buildId}/${Date.now()}`,
      checkoutDir: checkout.dir,
      docsRoot: project.files.root,
      variables: project.config.variables,
      userFields,
      openapi: project.config.openapi,
      glossary,
    };
    const targeted = plan.kind === 'targeted' ? { plan, state: state! } : undefined;
    const rendered = await run(
      'rendering pages',
      () => collectPages({ project, cache, base, signal, limits, force: input.force === true, targeted }),
      (r) => `${r.entries.length} pages, ${r.fromCache} from cache${targeted ? `, ${r.kept} unchanged` : ''}`,
    );
    let entries = rendered.entries;
    const editBaseUrl = editUrlTemplate({ repoUrl: input.repoUrl, branch: input.branch.replace(/^refs\/(?:heads|tags)\//, ''), docsRoot: project.docsRootRel, pattern: project.config.raw?.editUrl });
    // A version build renders with the default branch's versioning (rule 4), under its base path.
    const siteConfig: SiteConfig = input.version ? { ...project.config, versioning: input.version.versioning } : project.config;
    const basePath = input.version?.basePath;
    const assembled = await run(
      'assembling navigation',
      () => {
        const built = assembleSite(project, entries);
        const key = siteShellKey({
          site: siteConfig,
          nav: built.nav,
          pages: built.pages,
          ...(editBaseUrl ? { editBaseUrl } : {}),
          ...(basePath ? { basePath } : {}),
        });
        return { site: built, shellKey: key };
      },
      (r) => `${r.site.pages.length} pages, home ${r.site.home}`,
    );
    let site = assembled.site;
    const shellKey = assembled.shellKey;
    if (targeted && rendered.kept > 0 && shellKey !== targeted.state.shellKey) {
      // The sidebar, the config or the shell's code changed: every page's document is rendered again.
      entries = await run('reading unchanged pages', () => hydrate(entries, cache, { base, signal, limits }), (r) => `${r.read} from cache, ${r.rendered} rendered, for the changed site navigation`).then((r) => r.entries);
      site = assembleSite(project, entries);
    }
    for (const e of entries) warn(factsOf(e).warnings);
    if (input.lastChanged) {
      const read = input.lastChanged;
      await run('dating pages', () => datePages(site.pages, project.docsRootRel, checkout.commitSha, read, input.log), (n) => `${n} pages dated from git history`);
    }

    // One inventory for the lint step's navigation rules and the link check: the same verdicts.
    // Pages are linted as they are rendered: with the site's variables put in (linter.ts `variables`).
    const lintOptions: LinterOptions = { ...input.lint, variables: project.config.variables };
    const lintKey = sha256(`${linterVersion()}\0${JSON.stringify({ ...lintOptions, inventory: undefined })}`);
    const { inventory, inventoryKey, recheck, known } = await run(
      'comparing links',
      () => {
        const inv = pageInventory({ pages: entries.map((p) => p.path), files: project.files, redirects: project.config.redirects });
        const invKey = sha256(JSON.stringify(inv));
        const verdictsChanged =
          targeted && invKey !== targeted.state.inventoryKey
            ? pagesWithChangedVerdicts(
                entries.map((e) => ({ path: e.path, ...(e.filePath ? { filePath: e.filePath } : {}), ...factsOf(e) })),
                inventoryOf(targeted.state),
                inv,
              )
            : new Set<string>();
        const renderedNow = new Set(rendered.entries.filter((e) => e.page).map((e) => e.path));
        const again = (e: PageEntry) => renderedNow.has(e.path) || verdictsChanged.has(e.path) || !e.kept;
        const carried =
          targeted && targeted.state.lintKey === lintKey
            ? knownFindings(targeted.state, project.pageFiles, entries, (e) => again(e) || targeted.plan.changed.has(e.filePath ?? ''))
            : undefined;
        return { inventory: inv, inventoryKey: invKey, recheck: again, known: carried, verdictsChanged: verdictsChanged.size };
      },
      (r) => `${r.inventory.pages.length} pages, ${r.inventory.files.length} files${targeted ? `; ${r.verdictsChanged} pages whose links' verdicts changed` : ''}`,
    );
    const previousOutput: PreviousOutput | undefined =
      state && previous?.localDir
        ? {
            dir: previous.localDir,
            shellKey: state.shellKey,
            pages: new Map(state.pages.map((p) => [p.path, { inputKey: p.inputKey, markdownHash: p.markdownHash }])),
            assets: new Set(state.assets),
            unchangedFiles: changedDocs ? new Set(state.files.filter((f) => !changedDocs.has(f))) : new Set(),
          }
        : undefined;
    // The lint step and the site's files do not depend on each other: the lint task goes to the worker
    // pool first, then the files are written (and shared with the previous deployment) meanwhile.
    const linting = run(
      'linting pages',
      () =>
        lintPages({
          pageFiles: project.pageFiles,
          files: project.files,
          checkoutDir: checkout.dir,
          docsRoot: project.files.root,
          cacheDir: paths.lintCache(input.projectId),
          buildKey: base.buildKey,
          lint: { ...lintOptions, inventory },
          signal,
          onFailure: (message) => input.log(`lint: ${message}`),
          ...(known ? { known, prune: false } : {}),
          ...(input.force ? { useCache: false } : {}),
        }),
      (r) => `${r.counts.reduce((n, [, c]) => n + c, 0)} findings on ${r.pages.filter((p) => p.findings.length > 0).length} of ${r.pages.length} pages, ${r.fromCache} from cache`,
    );
    const writing = run(
      'writing site',
      () =>
        writeSiteFiles({
          outDir,
          buildId: input.buildId,
          projectId: input.projectId,
          site: siteConfig,
          nav: site.nav,
          pages: site.pages,
          home: site.home,
          ...(basePath ? { basePath } : {}),
          files: project.files,
          siteUrl: input.siteUrl.replace(/\/+$/, ''),
          ...(editBaseUrl ? { editBaseUrl } : {}),
          ...(previousOutput ? { previous: previousOutput } : {}),
          ...(project.apiCoverage ? { apiCoverage: project.apiCoverage } : {}),
        }, previousOutput ? (files) => linkInPool({ fromDir: previousOutput.dir, toDir: outDir, files }, signal).catch((err: unknown) => {
          throw signal.aborted ? err : new ReuseFailed((err as Error).message);
        }) : undefined).catch((err: unknown) => {
          throw !signal.aborted && err instanceof CarriedPageError ? new ReuseFailed(err.message) : err;
        }),
      (w) => `${w.fileCount} files: ${w.counts.written} written, ${w.counts.linked} shared with the previous deployment, ${w.counts.copied} copied`,
    );
    // The search index needs the pages' `.md` hashes, which writing the site computes. An incremental
    // build that may (`carrySearchIndex`) lays a delta of the pages it rendered over the live
    // deployment's index, so the new words are found in the same deploy without indexing every page.
    const indexing = writing.then(async (w) => {
      if (targeted && previousOutput && input.carrySearchIndex) {
        const delta = await run(
          'indexing search',
          () =>
            writeSearchIndexDelta({
              outDir,
              pages: site.pages,
              nav: site.nav,
              pageKeys: w.pageKeys,
              previousDir: previousOutput.dir,
              previousPages: previousOutput.pages.keys(),
            }),
          (r) => (r ? `${r.pages} pages: the previous deployment's index shared, ${r.pages - r.reused} pages (${r.records} sections) laid over it` : 'no delta: every page indexed'),
        );
        if (delta) return;
      }
      await run('indexing search', () => writeSearchIndex({ outDir, pages: site.pages, nav: site.nav, pageKeys: w.pageKeys, ...(previousOutput ? { previousDir: previousOutput.dir } : {}) }, signal), (r) => `${r.pages} pages, ${r.records} sections, ${r.reused} unchanged, ${Math.round(r.bytes / 1024)} KB`).catch((err: unknown) => {
        throw !signal.aborted && err instanceof CarriedRecordsError ? new ReuseFailed(err.message) : err;
      });
    });
    const settled = Promise.allSettled([linting, writing, indexing]);
    let linted: LintReport;
    let linkWarnings: PageLinkWarnings;
    try {
      linted = await linting;
      for (const [ruleId, count] of linted.counts) input.log(`  lint ${ruleId}: ${count}`);

      linkWarnings = await run('checking links', () => checkPageLinks(entries, inventory, project.files, targeted ? recheck : () => true), (r) => `${r.total} warnings${targeted ? `, ${r.checked} pages checked` : ''}`);
      for (const e of entries) warn(linkWarnings.byPage.get(e.path) ?? []);
    } catch (err) {
      await settled; // nothing may still be writing when the unfinished directory is removed
      throw err;
    }
    const written = await writing;
    await indexing;
    warn(written.warnings);
    throwIfAborted(signal);

    const lintCarried = new Set(known?.keys());
    const entryByPath = new Map(entries.map((e) => [e.path, e]));
    const unchanged = (pagePath: string) => {
      const e = entryByPath.get(pagePath);
      return e?.kept !== undefined && !recheck(e);
    };
    await run('saving build state', () =>
      writeBuildState(input.dataDir, input.projectId, {
        format: BUILD_STATE_FORMAT,
        buildId: input.buildId,
        commitSha: checkout.commitSha,
        renderKey,
        lintKey,
        inventoryKey,
        shellKey: written.shellKey,
        project: { ...projectData(project) },
        linkTargets: linkTargetsByTarget(checkout.dir, project.files.linkTargets),
        overlay: overlayHashes,
        pages: entries.map((e) => statePage(e, written.pageKeys.get(e.path)!, linkWarnings.byPage.get(e.path) ?? [])),
        lint: linted.pages,
        files: written.manifest.files,
        assets: written.manifest.assets,
      }, {
        ...(targeted ? { previous: targeted.state, unchanged, lintUnchanged: (file: string) => lintCarried.has(file), sameProject: reuse !== undefined } : {}),
        ...(input.stateMemory ? { memory: input.stateMemory } : {}),
      }),
    );
    input.log(
      `${targeted ? 'incremental' : 'full'} build: ${rendered.entries.length - rendered.kept} of ${entries.length} pages rendered${rendered.fromCache ? ` (${rendered.fromCache} from cache)` : ''}, ` +
        `${written.reusedPages} pages' documents shared with the previous deployment${previous?.localDir && previousOutput ? ` (${path.basename(previous.localDir)})` : ''}; ` +
        `${Math.round(performance.now() - started)} ms in the builder`,
    );
    throwIfAborted(signal);
    done = true;
    return {
      outDir,
      commitSha: checkout.commitSha,
      commitMessage: checkout.commitMessage,
      pages: site.pages.length,
      warnings,
      lint: linted,
    };
  } catch (err) {
    if (budget.aborted && !input.signal.aborted) {
      throw new BuildError(`The build ran out of its time budget of ${Math.round(limits.timeoutMs / 1000)} s while ${current} (QUIRE_BUILD_TIMEOUT_SECONDS) and was stopped.`);
    }
    if (err instanceof ReuseFailed) throw err;
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
    if (change.content !== null) fs.writeFileSync(target, changeEntryBytes(change)!);
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
  /** the configuration's own warnings (`warnings` adds the main thread's file walk's) */
  configWarnings: BuildWarning[];
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
  return { ...loaded.project, files, configWarnings: loaded.project.warnings, warnings: [...files.warnings, ...loaded.project.warnings] };
}

/**
 * The previous build's project, for a build whose changes cannot change it (incremental.ts: only
 * existing, listed files modified, and a docs.json present): the docs root is indexed again here,
 * the configuration is not read.
 */
function reuseProject(loaded: LoadedProject, checkoutDir: string): Project {
  const files = openDocsFiles(checkoutDir, path.join(checkoutDir, loaded.docsRootRel), loaded.listedFiles);
  return { ...loaded, docsRoot: files.root, files, configWarnings: loaded.warnings, warnings: [...files.warnings, ...loaded.warnings] };
}

/** The project as plain data, as loading it gave it (build-state.ts). */
function projectData(project: Project): LoadedProject {
  const { files: _files, configWarnings, ...rest } = project;
  return { ...rest, warnings: configWarnings };
}

/** What of a project every rendered page depends on: when it changes, no page of the previous build holds. */
function renderInputs(project: LoadedProject): string {
  return JSON.stringify([project.docsRootRel, project.config.variables, userFieldsOf(project.config.raw), project.config.openapi, project.operations]);
}

/** Sidebar titles, hidden flags, gated pages and the home page (shared/src/site/site-layout.ts), with each page rendered or carried. */
function assembleSite(project: Project, entries: readonly PageEntry[]): { nav: NavNode[]; pages: SitePage[]; home: string } {
  const facts = entries.map(factsOf);
  const layout = layoutSite(project.nav, entries.map((r, i) => ({ ...r, title: facts[i]!.title, frontmatter: facts[i]!.frontmatter })));
  const pages: SitePage[] = layout.pages.map((place, i) => {
    const r = entries[i]!;
    const f = facts[i]!;
    const page = r.page ?? {
      title: f.title,
      ...(f.description ? { description: f.description } : {}),
      frontmatter: f.frontmatter,
      carried: { inputKey: r.kept!.inputKey, markdownHash: r.kept!.markdownHash },
    };
    return { ...place, page };
  });
  return { nav: layout.nav, pages, home: layout.home };
}

/** The log line of a warning: `warning [broken-link] guides/setup.mdx:12 /missing-page`. */
export function formatWarning(w: BuildWarning): string {
  const where = w.file ? ` ${w.file}${w.line ? `:${w.line}` : ''}` : '';
  return `warning [${w.kind}]${where} ${w.message}`;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

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
