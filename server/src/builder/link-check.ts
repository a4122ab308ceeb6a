import { normalizeFilePath, resolveFilePath } from '@quire/shared/docs/files';
import { matchRedirect } from '@quire/shared/docs/nav/index';
import type { BuildWarning, DocsFiles, Redirect, RenderedPage } from '@quire/shared/docs/types';

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

/**
 * Checks internal links and local images of every page (issue 3; these are warnings, never a failed build):
 * - `broken-link`: a link (root-relative `/x` or relative `../x`, anchors and queries ignored, `.md`,
 *   `.mdx`, `.html` and trailing `/` tolerated) that is no page, no `<dir>/index` page, no file of the
 *   docs root and no redirect source;
 * - `missing-image`: an image or asset source that is no file of the docs root (root-relative, or
 *   relative to the page, or to the root as pezzo writes them).
 * External links (`https:`, `mailto:`, `//host`) and data URLs are not checked. Each warning names the
 * page's file and the 1-based line where the target first appears in its source. One warning per
 * page and target.
 */
export function checkLinks(pages: LinkCheckPage[], files: DocsFiles, redirects: Redirect[]): BuildWarning[] {
  const pagePaths = new Set(pages.map((p) => p.path));
  const isPage = (t: string) => t === '' || pagePaths.has(t) || pagePaths.has(t === '' ? 'index' : `${t}/index`);
  const warnings: BuildWarning[] = [];
  for (const { path, filePath, page } of pages) {
    const from = filePath ?? `${path}.mdx`;
    const source = filePath ? files.read(filePath) : undefined;
    const where = (target: string) => ({ file: filePath ?? path, ...(source ? lineOf(source, target) : {}) });
    const seen = new Set<string>();
    for (const link of page.links) {
      if (seen.has(link) || EXTERNAL.test(link)) continue;
      seen.add(link);
      const bare = link.replace(/[?#].*$/, '');
      if (bare === '') continue; // same-page anchor
      const resolved = resolveFilePath(from, decodeSafe(bare));
      const ok =
        resolved !== undefined &&
        (files.exists(resolved) ||
          isPage(resolved.replace(PAGE_EXT, '').replace(/\/$/, '')) ||
          matchRedirect(redirects, `/${resolved}`) !== undefined ||
          matchRedirect(redirects, bare.startsWith('/') ? bare : `/${resolved}`) !== undefined);
      if (!ok) warnings.push({ ...where(link), kind: 'broken-link', message: link });
    }
    for (const src of new Set(page.assets)) {
      if (EXTERNAL.test(src) || src.startsWith('data:')) continue;
      const bare = decodeSafe(src.replace(/[?#].*$/, ''));
      if (bare === '') continue;
      const candidates = [resolveFilePath(from, bare), normalizeFilePath(bare)];
      if (!candidates.some((c) => c !== undefined && files.exists(c))) {
        warnings.push({ ...where(src), kind: 'missing-image', message: src });
      }
    }
  }
  return warnings;
}

/** 1-based line of the first occurrence of `needle` in `source` (after the frontmatter when possible). */
function lineOf(source: string, needle: string): { line?: number } {
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
