/**
 * Incremental builds: what a push changed, and what of the previous build still holds.
 *
 * A build that replaces a live deployment whose state it can read (build-state.ts) and whose changed
 * paths it knows (`git diff` between the two commits, or the push webhook's list) re-renders only the
 * pages those paths affect; everything else comes from the previous build: page facts from its state,
 * page documents and files as hard links to its deployment (site-writer.ts). Anything this module
 * cannot judge safely makes the build a full one (every page considered, the page cache still used):
 * the configuration (`docs.json`, `mint.json`, `.mintignore`), snippets, JSON and YAML files (OpenAPI
 * specifications, `$ref`ed configuration), a config file outside the docs folder (the docs folder may
 * move), or paths that are not plain repository paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_FILES, SNIPPET_FOLDERS } from '@quire/shared/docs/config/index';
import { checkImageSource, checkLinkTarget } from '@quire/shared/docs/link-check';
import { indexInventory, pageInventory, type PageInventory } from '@quire/shared/docs/page-inventory';
import type { BuildState } from './build-state';

/** How a build goes about the previous one. */
export type ChangePlan =
  | { kind: 'full'; reason: string }
  | {
      kind: 'targeted';
      /** changed docs-root files (a symbolic link's target counts for the link) */
      changed: Set<string>;
      /** files may have been added, removed or ignored differently, or the navigation is made from the folders: load the project again */
      reload: boolean;
    };

/** A repository path as git and webhooks give it, or undefined when it is not a plain relative path. */
export function normalizeChangedPath(p: string): string | undefined {
  const clean = p.replace(/^\.\//, '').replace(/^\/+/, '');
  const segments = clean.split('/');
  if (clean === '' || clean.includes('\\') || clean.includes('\0') || segments.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return clean;
}

/**
 * Decides whether the changes `changedPaths` (repository-relative) can be built from `state`, the
 * previous build's state, and which docs files they touch (see the module comment for what makes a
 * build a full one).
 * @param checkoutDir the checkout of the new commit (to tell modified files from added and removed ones)
 */
export function planChanges(changedPaths: readonly string[], state: BuildState, checkoutDir: string): ChangePlan {
  const rootRel = state.project.docsRootRel;
  const prefix = rootRel ? `${rootRel}/` : '';
  const hasConfig = Boolean(state.project.config.source);
  const listed = new Set(state.project.listedFiles);
  const changed = new Set<string>();
  let reload = !hasConfig;
  for (const raw of changedPaths) {
    const p = normalizeChangedPath(raw);
    if (p === undefined) return { kind: 'full', reason: `the changed path ${JSON.stringify(raw.slice(0, 200))} is not a plain repository path` };
    for (const linked of state.linkTargets[p] ?? []) changed.add(linked);
    const name = p.slice(p.lastIndexOf('/') + 1);
    if (prefix && !p.startsWith(prefix)) {
      if ((CONFIG_FILES as readonly string[]).includes(name)) return { kind: 'full', reason: `${p} changed (the docs folder may move)` };
      if (!hasConfig && !p.includes('/') && /\.mdx?$/i.test(p)) return { kind: 'full', reason: `${p} changed (the docs folder may move)` };
      continue; // outside the docs folder: not part of the site
    }
    const d = p.slice(prefix.length);
    if ((CONFIG_FILES as readonly string[]).includes(d)) return { kind: 'full', reason: `${d} changed` };
    if (d === '.mintignore') return { kind: 'full', reason: '.mintignore changed' };
    if (SNIPPET_FOLDERS.some((f) => d.startsWith(f))) return { kind: 'full', reason: `the snippet ${d} changed` };
    if (/\.(?:json|ya?ml)$/i.test(d)) return { kind: 'full', reason: `${d} changed (configuration or OpenAPI)` };
    const exists = fs.lstatSync(path.join(checkoutDir, p), { throwIfNoEntry: false }) !== undefined;
    if (!exists || !listed.has(d)) reload = true;
    changed.add(d);
  }
  return { kind: 'targeted', changed, reload };
}

/**
 * The page paths whose rendered page may differ from the previous build's: the page's own file
 * changed, it is new (or now comes from another file), or a file it read (a page it imports, an
 * image it inlines) changed, also by extension (`x.md` imported as `/x` and `x.mdx` added).
 * @param chosen page path → file path of this build
 */
export function pagesToRender(chosen: ReadonlyMap<string, string>, state: BuildState, changed: ReadonlySet<string>): Set<string> {
  const stem = (f: string) => f.replace(/\.mdx?$/i, '');
  const changedStems = new Set([...changed].map(stem));
  const before = new Map(state.pages.map((p) => [p.path, p]));
  const out = new Set<string>();
  for (const [pagePath, filePath] of chosen) {
    const prev = before.get(pagePath);
    if (!prev || prev.filePath !== filePath || changed.has(filePath) || prev.dependencies.some((d) => changed.has(d) || changedStems.has(stem(d)))) {
      out.add(pagePath);
    }
  }
  return out;
}

/** A page as the link check sees it. */
interface LinkedPage {
  path: string;
  filePath?: string;
  links: readonly string[];
  assets: readonly string[];
}

/**
 * The pages for which some internal link or image source gets another verdict (fine, broken, or
 * broken with another suggestion; shared/src/docs/link-check.ts, the rule of the build's link check
 * and of the linter's navigation rules) under `after` than under `before`. Only these pages' link
 * warnings and lint findings can change when pages or files are added or removed.
 * @returns their page paths
 */
export function pagesWithChangedVerdicts(pages: readonly LinkedPage[], before: PageInventory, after: PageInventory): Set<string> {
  const a = indexInventory(before);
  const b = indexInventory(after);
  const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
  const out = new Set<string>();
  for (const p of pages) {
    const from = p.filePath ?? `${p.path}.mdx`;
    if (
      p.links.some((l) => !same(checkLinkTarget(a, from, l), checkLinkTarget(b, from, l))) ||
      p.assets.some((s) => !same(checkImageSource(a, from, s), checkImageSource(b, from, s)))
    ) {
      out.add(p.path);
    }
  }
  return out;
}

/**
 * The symbolic links of a docs folder by target: checkout-relative real path of each target → the
 * docs files reached through it (checkout-files.ts `linkTargets`), for {@link planChanges}.
 */
export function linkTargetsByTarget(checkoutDir: string, linkTargets: ReadonlyMap<string, string>): Record<string, string[]> {
  const root = fs.realpathSync(checkoutDir);
  const out: Record<string, string[]> = {};
  for (const [file, target] of linkTargets) {
    const rel = path.relative(root, target).split(path.sep).join('/');
    if (rel.startsWith('..')) continue;
    (out[rel] ??= []).push(file);
  }
  return out;
}

/**
 * The docs files among repository paths that changed (a symbolic link's target counts for the link),
 * for a build that could not be incremental but still shares unchanged static files.
 */
export function docsPathsOf(changedPaths: readonly string[], state: BuildState, docsRootRel: string): Set<string> {
  const prefix = docsRootRel ? `${docsRootRel}/` : '';
  const out = new Set<string>();
  for (const raw of changedPaths) {
    const p = normalizeChangedPath(raw) ?? raw;
    for (const linked of state.linkTargets[p] ?? []) out.add(linked);
    if (p.startsWith(prefix)) out.add(p.slice(prefix.length));
  }
  return out;
}

/** The page inventory the previous build checked its links against. */
export function inventoryOf(state: BuildState): PageInventory {
  return pageInventory({ pages: state.pages.map((p) => p.path), files: state.project.listedFiles, redirects: state.project.config.redirects });
}
