/**
 * Internal link and image checks against a site's page inventory (page-inventory.ts). One rule for
 * builds (their `broken-link` / `missing-image` warnings, {@link checkLinks}) and for the linter's
 * `links/broken` and `images/missing` rules (shared/src/lint/navigation.ts), which call
 * {@link checkLinkTarget} and {@link checkImageSource} on each target written in a page.
 *
 * A link (root-relative `/x` or relative `../x`; anchors and queries ignored, `.md`, `.mdx`, `.html`
 * and a trailing `/` tolerated) is fine when it is a page, a `<dir>/index` page, a published file
 * or a redirect source. An image or asset source is fine when it is a published file, relative to
 * the page or to the docs root (as pezzo writes them). External targets (`https:`, `mailto:`,
 * `//host`), data URLs and same-page anchors are not checked. When a broken target differs from an
 * existing one only by letter case or extension, the verdict suggests that one.
 */
import { normalizeFilePath, resolveFilePath } from './files';
import { matchRedirect } from './nav/match-redirect';
import { indexInventory, type InventoryIndex, type PageInventory } from './page-inventory';
import type { BuildWarning, RenderedPage } from './types';

/** A target that was checked: fine, or not (with a replacement when one is obvious). */
export type TargetVerdict = { ok: true } | { ok: false; suggestion?: string };

/** A rendered page as the link checker sees it. */
export interface LinkCheckPage {
  /** page path (`guides/setup`) */
  path: string;
  /** its file path (`guides/setup.mdx`); generated OpenAPI pages have none */
  filePath?: string;
  page: Pick<RenderedPage, 'links' | 'assets'>;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
const PAGE_EXT = /\.(?:mdx?|html)$/i;
const ANY_EXT = /\.[a-z0-9]{1,8}$/i;

/** True for targets the checks leave alone: external, data URLs, pure anchors or queries, empty. */
export function isUncheckedTarget(target: string): boolean {
  return EXTERNAL.test(target) || target.replace(/[?#].*$/, '') === '';
}

/**
 * Checks an internal link written in the page file `fromFile` (relative to the docs root).
 * @returns null when the link is not checked (external, anchor only), else the verdict
 */
export function checkLinkTarget(index: InventoryIndex, fromFile: string, link: string): TargetVerdict | null {
  if (isUncheckedTarget(link)) return null;
  const bare = link.replace(/[?#].*$/, '');
  const suffix = link.slice(bare.length);
  const resolved = resolveFilePath(fromFile, decodeSafe(bare));
  if (resolved === undefined) return { ok: false };
  const page = resolved.replace(PAGE_EXT, '').replace(/\/$/, '');
  const isPage = (t: string) => t === '' || index.hasPage(t) || index.hasPage(`${t}/index`);
  const redirects = index.inventory.redirects;
  if (
    index.hasFile(resolved) ||
    isPage(page) ||
    matchRedirect(redirects, `/${resolved}`) !== undefined ||
    matchRedirect(redirects, bare.startsWith('/') ? bare : `/${resolved}`) !== undefined
  ) {
    return { ok: true };
  }
  const stem = page.replace(ANY_EXT, '');
  const candidates = new Set<string>();
  for (const t of new Set([page, stem])) {
    for (const p of index.pagesIgnoringCase(t)) candidates.add(p === 'index' ? '' : p);
    for (const p of index.pagesIgnoringCase(`${t}/index`)) candidates.add(p.slice(0, -'/index'.length));
  }
  for (const f of index.filesIgnoringCase(resolved)) candidates.add(f);
  return candidates.size === 1 ? { ok: false, suggestion: `/${[...candidates][0]}${suffix}` } : { ok: false };
}

/**
 * Checks an image or asset source written in the page file `fromFile`.
 * @returns null when the source is not checked (external, data URL), else the verdict
 */
export function checkImageSource(index: InventoryIndex, fromFile: string, src: string): TargetVerdict | null {
  if (isUncheckedTarget(src) || src.startsWith('data:')) return null;
  const bare = decodeSafe(src.replace(/[?#].*$/, ''));
  const candidates = [resolveFilePath(fromFile, bare), normalizeFilePath(bare)].filter((c): c is string => c !== undefined);
  if (candidates.some((c) => index.hasFile(c))) return { ok: true };
  const found = new Set<string>();
  for (const c of candidates) for (const f of index.filesIgnoringCase(c)) found.add(f);
  if (found.size === 0) {
    // the same name with another extension (`logo.png` written, `logo.svg` published)
    const stems = new Set(candidates.map((c) => c.replace(ANY_EXT, '').toLowerCase()));
    for (const f of index.inventory.files) if (ANY_EXT.test(f) && stems.has(f.replace(ANY_EXT, '').toLowerCase())) found.add(f);
  }
  return found.size === 1 ? { ok: false, suggestion: `/${[...found][0]}` } : { ok: false };
}

/**
 * The build's link check (these are warnings, never a failed build): `broken-link` for each
 * internal link of a rendered page that {@link checkLinkTarget} refuses, `missing-image` for each
 * local image or asset source {@link checkImageSource} refuses. Each warning names the page's file
 * and the 1-based line where the target first appears in its source (`read` gives the source).
 * One warning per page and target.
 */
export function checkLinks(pages: readonly LinkCheckPage[], inventory: PageInventory, read: (filePath: string) => string | undefined): BuildWarning[] {
  const index = indexInventory(inventory);
  const warnings: BuildWarning[] = [];
  for (const { path, filePath, page } of pages) {
    const from = filePath ?? `${path}.mdx`;
    const source = filePath ? read(filePath) : undefined;
    const where = (target: string) => ({ file: filePath ?? path, ...(source ? lineOf(source, target) : {}) });
    for (const link of new Set(page.links)) {
      const verdict = checkLinkTarget(index, from, link);
      if (verdict && !verdict.ok) warnings.push({ ...where(link), kind: 'broken-link', message: link });
    }
    for (const src of new Set(page.assets)) {
      const verdict = checkImageSource(index, from, src);
      if (verdict && !verdict.ok) warnings.push({ ...where(src), kind: 'missing-image', message: src });
    }
  }
  return warnings;
}

/** 1-based line of the first occurrence of `needle` in `source` (`{}` when it does not occur). */
export function lineOf(source: string, needle: string): { line?: number } {
  const idx = source.indexOf(needle);
  if (idx < 0) return {};
  let line = 1;
  for (let i = 0; i < idx; i++) if (source.charCodeAt(i) === 10) line++;
  return { line };
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
