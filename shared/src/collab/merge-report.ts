/**
 * The pre-merge report of a change set review (decisions.md section 9: a review wraps a change set on
 * a base commit): what merging would do to the site, computed by the engine the build uses, so that
 * the server (for a review's preview) and the desktop app (offline, from its own store) give the same
 * report for the same input.
 *
 * - Pages changed: page files (`.mdx`, `.md`, shared/src/docs/nav/check-navigation.ts) of the docs
 *   root added, modified or deleted, with the title their front matter gives (else one from the path).
 * - Lint findings added and fixed: the linter (shared/src/lint) runs on each changed page and on
 *   docs.json/mint.json when it changed or pages were added or deleted (`navigation/missing-page`), before
 *   (base text, base site) and after (new text, new site); a finding
 *   is the same on both sides when its rule and message are (positions move as text is edited).
 * - Broken internal links and missing images introduced: the linter's `links/broken` and
 *   `images/missing` findings (the build's link rules, shared/src/docs/link-check.ts) new in a changed page.
 * - Navigation changes: pages added to, removed from or moved between groups of the navigation as
 *   written in docs.json (load-project.ts).
 * - Redirects added and removed (the configuration's `redirects`).
 *
 * Bounded: only changed files are linted; of the other files, only their paths and the files a project
 * loads with (configuration, `$ref`s, OpenAPI specs, `.mintignore`, folder `index` pages;
 * {@link mergeReportReads}) are read. Links of unchanged pages are not checked again.
 */
import { decodeBase64 } from '../base64';
import { repoFoldersOf } from '../docs/config/docs-root';
import { loadProject, type LoadedProject } from '../docs/config/load-project';
import { titleFromPath } from '../docs/config/title-from-path';
import { pagePathOf } from '../docs/nav/check-navigation';
import { walkPages } from '../docs/nav/walk';
import { frontmatterTitle } from '../docs/page-text';
import { pageInventory } from '../docs/page-inventory';
import type { DocsFiles, NavNode, Redirect } from '../docs/types';
import { createLinter, type LinterOptions } from '../lint/linter';
import type { LintFinding, LintSeverity } from '../lint/types';

/** One file of the change set: its repository path and new text (null: deleted); `encoding: 'base64'` for bytes. */
export interface MergeReportChange {
  path: string;
  content: string | null;
  encoding?: 'utf-8' | 'base64';
}

/** What {@link mergeReport} reads. Paths are repository paths (POSIX, no leading `/`). */
export interface MergeReportInput {
  /** every file path of the repository at the base commit */
  basePaths: readonly string[];
  /** the text of a base file; undefined when missing or binary. Only paths {@link mergeReportReads} names are asked for. */
  readBase(path: string): string | undefined;
  /** the change set */
  changes: readonly MergeReportChange[];
  /** the project's style rules, glossary and rule settings (the linter's options without the site parts) */
  lint?: Pick<LinterOptions, 'styleRules' | 'glossary' | 'settings'>;
}

/** A page file the change set adds, modifies or deletes. */
export interface ReportPage {
  /** repository path of the file */
  path: string;
  /** page path on the site (`guides/setup`) */
  page: string;
  change: 'added' | 'modified' | 'deleted';
  /** front matter `title` (of the new text; of the old one for a deleted page), else made from the path */
  title: string;
}

/** A lint finding in the report: the file (repository path) and the 1-based line on the side it was found. */
export interface ReportFinding {
  path: string;
  line: number;
  ruleId: string;
  severity: LintSeverity;
  message: string;
}

/** A page whose place in the navigation changed: `from`/`to` are its group titles, outermost first (null: not in the navigation). */
export interface ReportNavChange {
  page: string;
  change: 'added' | 'removed' | 'moved';
  from: string[] | null;
  to: string[] | null;
}

/** The pre-merge report. Every list is sorted (by path, then line), so equal inputs give equal reports. */
export interface MergeReport {
  pages: ReportPage[];
  lint: { added: ReportFinding[]; fixed: ReportFinding[] };
  /** `links/broken` findings new in changed files */
  brokenLinks: ReportFinding[];
  /** `images/missing` findings new in changed files */
  missingImages: ReportFinding[];
  navigation: ReportNavChange[];
  redirects: { added: Redirect[]; removed: Redirect[] };
  /** why the site configuration could not be loaded, per side (null when it loaded); navigation and link checks then stay empty on that side */
  configErrors: { base: string | null; head: string | null };
}

const LINK_RULES = new Set(['links/broken', 'images/missing']);
const LOAD_FILES = /(?:^|\/)(?:index\.mdx?|README\.md|readme\.md|\.mintignore)$|\.(?:json|ya?ml)$/i;

/**
 * The base files {@link mergeReport} reads besides the changed ones: what loading a project reads
 * (configuration and its `$ref`s, OpenAPI specs, `.mintignore`, folder `index` pages), sorted.
 * A caller that reads asynchronously (the server's git reader) reads these first.
 */
export function mergeReportReads(basePaths: readonly string[], changes: readonly MergeReportChange[]): string[] {
  const base = new Set(basePaths);
  const out = new Set(basePaths.filter((p) => LOAD_FILES.test(p)));
  for (const c of changes) if (base.has(c.path)) out.add(c.path);
  return [...out].sort();
}

/**
 * Computes the pre-merge report of `input.changes` on the base files (see the module comment).
 * Deterministic: the same input gives the same report on every engine.
 * @throws PatternError (shared/src/lint/safe-pattern.ts) when a style rule's pattern is not valid RE2
 */
export async function mergeReport(input: MergeReportInput): Promise<MergeReport> {
  const readable = new Set(mergeReportReads(input.basePaths, input.changes));
  const readBase = (p: string) => (readable.has(p) ? input.readBase(p) : undefined);
  const changed = new Map(input.changes.map((c) => [c.path, c]));
  const headPaths = [...new Set([...input.basePaths, ...input.changes.filter((c) => c.content !== null).map((c) => c.path)])]
    .filter((p) => changed.get(p)?.content !== null)
    .sort();
  const readHead = (p: string) => {
    const c = changed.get(p);
    if (!c) return readBase(p);
    return c.content === null ? undefined : textOf(c);
  };
  const base = loadSide([...input.basePaths].sort(), readBase);
  const head = loadSide(headPaths, readHead);
  const root = head.project?.docsRootRel ?? base.project?.docsRootRel ?? '';
  const inRoot = (p: string) => (root === '' ? p : p.startsWith(`${root}/`) ? p.slice(root.length + 1) : undefined);

  const pages: ReportPage[] = [];
  const added: ReportFinding[] = [];
  const fixed: ReportFinding[] = [];
  const brokenLinks: ReportFinding[] = [];
  const missingImages: ReportFinding[] = [];
  const before = siteLinter(input.lint, base.project);
  const after = siteLinter(input.lint, head.project);
  const basePathSet = new Set(input.basePaths);
  // pages added or deleted change what the navigation may name: the configuration is linted again even when unchanged
  const configRel = head.project?.config.source ?? base.project?.config.source;
  const configPath = configRel ? (root ? `${root}/${configRel}` : configRel) : undefined;
  const pageSetChanged = input.changes.some((c) => {
    const rel = inRoot(c.path);
    return rel !== undefined && pagePathOf(rel) !== undefined && (c.content === null) !== !basePathSet.has(c.path);
  });
  const toLint = [...input.changes];
  if (configPath && pageSetChanged && !changed.has(configPath) && basePathSet.has(configPath)) {
    toLint.push({ path: configPath, content: readBase(configPath) ?? null });
  }
  for (const c of toLint.sort((a, b) => cmp(a.path, b.path))) {
    const rel = inRoot(c.path);
    if (rel === undefined) continue;
    const page = pagePathOf(rel);
    const isConfig = rel === 'docs.json' || rel === 'mint.json';
    if (page === undefined && !isConfig) continue;
    const oldText = basePathSet.has(c.path) ? readBase(c.path) : undefined;
    const newText = c.content === null ? undefined : textOf(c);
    if (page !== undefined) {
      const change = c.content === null ? 'deleted' : basePathSet.has(c.path) ? 'modified' : 'added';
      pages.push({ path: c.path, page, change, title: frontmatterTitle(newText ?? oldText ?? '') ?? titleFromPath(page) });
    }
    const oldFindings = oldText === undefined ? [] : await before.lint(oldText, rel);
    const newFindings = newText === undefined ? [] : await after.lint(newText, rel);
    const diff = (from: LintFinding[], minus: LintFinding[]) => {
      const left = new Map<string, number>();
      for (const f of minus) left.set(key(f), (left.get(key(f)) ?? 0) + 1);
      return from.filter((f) => {
        const n = left.get(key(f)) ?? 0;
        if (n > 0) left.set(key(f), n - 1);
        return n === 0;
      });
    };
    for (const f of diff(newFindings, oldFindings)) {
      const entry = finding(c.path, f);
      if (f.ruleId === 'links/broken') brokenLinks.push(entry);
      else if (f.ruleId === 'images/missing') missingImages.push(entry);
      else added.push(entry);
    }
    for (const f of diff(oldFindings, newFindings)) if (!LINK_RULES.has(f.ruleId)) fixed.push(finding(c.path, f));
  }

  return {
    pages,
    lint: { added, fixed },
    brokenLinks,
    missingImages,
    navigation: navChanges(base.project?.config.navigation ?? [], head.project?.config.navigation ?? []),
    redirects: redirectChanges(base.project?.config.redirects ?? [], head.project?.config.redirects ?? []),
    configErrors: { base: base.error, head: head.error },
  };
}

/** One side of the change: the project as loaded from `paths` read through `read`, or why it could not be. */
function loadSide(paths: string[], read: (p: string) => string | undefined): { project: LoadedProject | null; error: string | null } {
  try {
    const repo = {
      ...repoFoldersOf(paths),
      open: (docsRootRel: string): DocsFiles => {
        const prefix = docsRootRel ? `${docsRootRel}/` : '';
        const list = paths.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length));
        const set = new Set(list);
        return { list: () => list, exists: (f) => set.has(f), read: (f) => (set.has(f) ? read(prefix + f) : undefined) };
      },
    };
    return { project: loadProject(repo, { apiCoverage: false }).project, error: null };
  } catch (err) {
    return { project: null, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The project's linter with the site's inventory and variables (none when the project did not load: link rules stay silent). */
function siteLinter(options: MergeReportInput['lint'], project: LoadedProject | null) {
  if (!project) return createLinter({ ...options });
  const inventory = pageInventory({
    pages: [...project.pageFiles.map((f) => pagePathOf(f)!), ...project.operations.map((o) => o.path)],
    files: project.listedFiles,
    redirects: project.config.redirects,
  });
  return createLinter({ ...options, inventory, variables: project.config.variables });
}

function textOf(c: MergeReportChange): string | undefined {
  if (c.content === null) return undefined;
  if (c.encoding !== 'base64') return c.content;
  const bytes = decodeBase64(c.content);
  if (!bytes) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

const key = (f: LintFinding) => `${f.ruleId}\u0000${f.message}`;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function finding(path: string, f: LintFinding): ReportFinding {
  return { path, line: f.line, ruleId: f.ruleId, severity: f.severity, message: f.message };
}

/** Page path → its group titles (first place it is listed), for the navigation as written. */
function placesOf(nav: NavNode[]): Map<string, string[]> {
  const places = new Map<string, string[]>();
  for (const visit of walkPages(nav)) {
    if (!visit.node.path || places.has(visit.node.path)) continue;
    places.set(visit.node.path, visit.ancestors.map((a) => ('title' in a ? (a.title ?? '') : '')));
  }
  return places;
}

function navChanges(baseNav: NavNode[], headNav: NavNode[]): ReportNavChange[] {
  const from = placesOf(baseNav);
  const to = placesOf(headNav);
  const out: ReportNavChange[] = [];
  for (const [page, trail] of to) {
    const was = from.get(page);
    if (!was) out.push({ page, change: 'added', from: null, to: trail });
    else if (was.join('\u0000') !== trail.join('\u0000')) out.push({ page, change: 'moved', from: was, to: trail });
  }
  for (const [page, trail] of from) if (!to.has(page)) out.push({ page, change: 'removed', from: trail, to: null });
  return out.sort((a, b) => cmp(a.page, b.page));
}

function redirectChanges(baseRedirects: readonly Redirect[], headRedirects: readonly Redirect[]): MergeReport['redirects'] {
  const id = (r: Redirect) => `${r.source}\u0000${r.destination}\u0000${r.permanent}`;
  const had = new Set(baseRedirects.map(id));
  const has = new Set(headRedirects.map(id));
  return { added: headRedirects.filter((r) => !had.has(id(r))), removed: baseRedirects.filter((r) => !has.has(id(r))) };
}
