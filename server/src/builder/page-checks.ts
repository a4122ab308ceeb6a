/**
 * The link check and the lint findings of a build whose pages are partly kept from the previous
 * build (incremental.ts): pages whose verdicts cannot have changed carry their previous warnings
 * and findings; the others are checked and linted again.
 */
import { checkLinks } from '@quire/shared/docs/link-check';
import type { PageInventory } from '@quire/shared/docs/page-inventory';
import type { BuildWarning, DocsFiles } from '@quire/shared/docs/types';
import type { LintFinding } from '@quire/shared/lint/types';
import type { BuildState } from './build-state';
import { factsOf, type PageEntry } from './render-pages';

/** The link check's warnings by page path. */
export interface PageLinkWarnings {
  byPage: Map<string, BuildWarning[]>;
  total: number;
  /** pages checked in this build (the others carried their previous warnings) */
  checked: number;
}

/**
 * The build's link check (shared/src/docs/link-check.ts `checkLinks`: `broken-link` and
 * `missing-image` warnings naming the page's file and line) on the entries `check` says yes to;
 * kept entries it says no to carry their previous build's warnings.
 */
export function checkPageLinks(
  entries: readonly PageEntry[],
  inventory: PageInventory,
  files: DocsFiles,
  check: (entry: PageEntry) => boolean,
): PageLinkWarnings {
  const toCheck = entries.filter((e) => check(e) || !e.kept);
  const found = checkLinks(
    toCheck.map((e) => ({ path: e.path, ...(e.filePath ? { filePath: e.filePath } : {}), page: factsOf(e) })),
    inventory,
    (f) => files.read(f),
  );
  const pageOf = new Map(toCheck.map((e) => [e.filePath ?? e.path, e.path]));
  const byPage = new Map<string, BuildWarning[]>();
  for (const w of found) {
    const p = pageOf.get(w.file ?? '');
    if (p === undefined) continue;
    const list = byPage.get(p);
    if (list) list.push(w);
    else byPage.set(p, [w]);
  }
  const checked = new Set(toCheck.map((e) => e.path));
  let total = found.length;
  for (const e of entries) {
    if (checked.has(e.path) || e.kept!.linkWarnings.length === 0) continue;
    byPage.set(e.path, e.kept!.linkWarnings);
    total += e.kept!.linkWarnings.length;
  }
  return { byPage, total, checked: checked.size };
}

/**
 * The previous build's lint findings that still hold, by page file: those of pages kept as they
 * were (`relint` says no) under the same lint options. Files of pages that are no page any more,
 * or that another file of the same page path shadows, are left out (linted again).
 */
export function knownFindings(
  state: BuildState,
  pageFiles: readonly string[],
  entries: readonly PageEntry[],
  relint: (entry: PageEntry) => boolean,
): Map<string, LintFinding[]> {
  const stays = new Set(entries.filter((e) => e.kept && e.filePath && !relint(e)).map((e) => e.filePath!));
  const exists = new Set(pageFiles);
  const known = new Map<string, LintFinding[]>();
  for (const p of state.lint) if (stays.has(p.path) && exists.has(p.path)) known.set(p.path, p.findings);
  return known;
}
