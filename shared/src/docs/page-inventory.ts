/**
 * The page inventory of a site: which page paths exist, which files of the docs root are published,
 * and the redirects of its configuration. The builder makes one per build (after rendering: page
 * files plus generated OpenAPI pages, and `DocsFiles.list()`, the files the site copies); the
 * desktop app makes one from its file tree; `POST /lint` reads one from the deployed site. Link
 * checks (link-check.ts) and the linter's navigation rules (`links/broken`, `images/missing`) look
 * targets up in it. Plain data (structured-clone and JSON safe), so it can travel to worker threads
 * and into cache keys.
 */
import type { DocsFiles, Redirect } from './types';

/** What a site holds, as plain data. */
export interface PageInventory {
  /** page paths without extension, relative to the docs root (`guides/setup`, `index`) */
  pages: string[];
  /** every published file of the docs root, relative to it (`images/logo.png`, `guides/setup.mdx`) */
  files: string[];
  /** the configuration's redirects (a link to a redirect source is not broken) */
  redirects: Redirect[];
}

/** Fast lookups over a {@link PageInventory}; make one with {@link indexInventory}. */
export interface InventoryIndex {
  readonly inventory: PageInventory;
  /** true when `path` (no extension, no trailing `/`) is a page */
  hasPage(path: string): boolean;
  /** true when `path` is a published file */
  hasFile(path: string): boolean;
  /** the pages whose path equals `path` ignoring case */
  pagesIgnoringCase(path: string): string[];
  /** the files whose path equals `path` ignoring case */
  filesIgnoringCase(path: string): string[];
}

/**
 * An inventory from the pages a build rendered (or a tree lists), the docs root's files and the redirects.
 * Arrays come out sorted and de-duplicated, so equal sites give equal inventories (cache keys).
 */
export function pageInventory(input: { pages: Iterable<string>; files: DocsFiles | Iterable<string>; redirects?: readonly Redirect[] }): PageInventory {
  const files = isDocsFiles(input.files) ? input.files.list() : input.files;
  return { pages: [...new Set(input.pages)].sort(), files: [...new Set(files)].sort(), redirects: [...(input.redirects ?? [])] };
}

function isDocsFiles(value: DocsFiles | Iterable<string>): value is DocsFiles {
  return typeof (value as DocsFiles).list === 'function';
}

/** Indexes an inventory for lookups (linear in its size; do it once per linter or build). */
export function indexInventory(inventory: PageInventory): InventoryIndex {
  const pages = new Set(inventory.pages);
  const files = new Set(inventory.files);
  const byLower = (list: readonly string[]) => {
    const map = new Map<string, string[]>();
    for (const p of list) {
      const key = p.toLowerCase();
      const at = map.get(key);
      if (at) at.push(p);
      else map.set(key, [p]);
    }
    return map;
  };
  let pagesLower: Map<string, string[]> | undefined;
  let filesLower: Map<string, string[]> | undefined;
  return {
    inventory,
    hasPage: (p) => pages.has(p),
    hasFile: (p) => files.has(p),
    pagesIgnoringCase: (p) => (pagesLower ??= byLower(inventory.pages)).get(p.toLowerCase()) ?? [],
    filesIgnoringCase: (p) => (filesLower ??= byLower(inventory.files)).get(p.toLowerCase()) ?? [],
  };
}
