import { opensAudience } from '@quire/shared/site/audience';
import { baseOfMarker, DID_YOU_MEAN_MARK, DID_YOU_MEAN_MARK_END, renderDidYouMean } from '@quire/shared/site/not-found';
import { PathSuggester } from '@quire/shared/site/path-suggestions';
import { CACHE_PRIVATE, cachedFileOf, type CachedFile, type FileAccess } from './cached-file';
import type { SiteFileCache } from './file-cache';
import type { DeploymentManifest } from '../deployments/manifest';
import type { Refusal } from './page-filter';
import { sitePathOf } from '../deployments/site-path';

/** A page of the manifest that may be suggested. */
type ManifestPage = DeploymentManifest['pages'][number];

/** Suggestions remembered per deployment, by requested path and refused pages (visitors without tags only). */
const MAX_REMEMBERED = 2000;
/** Pages with suggestions made per deployment (each also bounded by the shared cache's bytes). */
const MAX_PAGES = 2000;
/** How many pages one 404 suggests. */
const SUGGESTIONS = 5;
const MARK = Buffer.from(DID_YOU_MEAN_MARK, 'utf8');
const MARK_END = Buffer.from(DID_YOU_MEAN_MARK_END, 'utf8');

/**
 * The "Did you mean" links of one deployment's 404 page (shared/src/site/not-found.ts): for each
 * request that ends on the not-found page, the pages whose paths are closest to the requested path
 * (shared/src/site/path-suggestions.ts; at most 5; hidden pages never, gated pages only to a visitor
 * whose tags open them, decisions.md section 6, and pages the project's access rules refuse the
 * visitor never, section 9) are put in place of the marker the builder left.
 *
 * Kept fast: the pages are prepared once; suggestions of visitors without tags are remembered per
 * requested path; the 404 page with a given set of links is compressed once (the light compression
 * of per-visitor variants) and kept in the shared site cache, so a repeated 404 costs lookups.
 * Made by its `DeploymentSite` on first use and disposed with it.
 */
export class NotFoundSuggestions {
  private readonly suggester: PathSuggester<ManifestPage>;
  private readonly remembered = new Map<string, readonly ManifestPage[]>();
  /** shared-cache keys of the pages made so far (freed on dispose) */
  private readonly keys = new Set<string>();
  private readonly making = new Map<string, Promise<CachedFile>>();
  private disposed = false;

  /**
   * @param pages the deployment's served pages, in manifest (navigation) order; hidden ones are left out here
   * @param keyPrefix a prefix unique to the deployment for keys in `cache`
   */
  constructor(
    pages: readonly ManifestPage[],
    private readonly cache: SiteFileCache,
    private readonly projectId: string,
    private readonly keyPrefix: string,
  ) {
    this.suggester = new PathSuggester(pages.filter((p) => !p.hidden));
  }

  /**
   * The not-found page to send for a request: `page` (the 404 as this visitor gets it) with the
   * closest pages in place of its marker, or `page` itself when nothing is close, the page has no
   * marker, or the request path cannot be read.
   * @param rawUrl the request target (`/guids/setup?x=1`)
   * @param tags the visitor's audience tags (the access decision's)
   * @param refusal the pages the access rules refuse the visitor (page-filter.ts); `page` is already without them
   */
  pageFor(rawUrl: string, page: CachedFile, tags: readonly string[], refusal: Refusal): CachedFile | Promise<CachedFile> {
    const target = sitePathOf(rawUrl);
    if (!target || target.path === '') return page;
    const body = page.identity.body;
    const at = body.indexOf(MARK);
    if (at === -1) return page;
    const end = body.indexOf(MARK_END, at + MARK.length);
    if (end === -1) return page;
    const base = baseOfMarker(body.subarray(at + MARK.length, end).toString('utf8'));
    const pages = this.closest(withoutBase(target.path, base), tags, refusal);
    if (pages.length === 0) return page;
    const key = `${this.keyPrefix}\0did-you-mean\0${page.hash}\0${pages.map((p) => p.path).join('\0')}`;
    const hit = this.cache.get(this.projectId, key);
    if (hit) return hit;
    const pending = this.making.get(key);
    if (pending) return pending;
    const html = Buffer.from(renderDidYouMean(base, pages.map((p) => ({ path: p.path, title: p.title }))), 'utf8');
    const filled = Buffer.concat([body.subarray(0, at), html, body.subarray(end + MARK_END.length)]);
    const access: FileAccess = pages.some((p) => p.audience?.length) ? 'private' : accessOf(page);
    const made = cachedFileOf(filled, new Date(page.mtimeSeconds * 1000), '404.html', 'site', { access, fast: true }).finally(() => this.making.delete(key));
    this.making.set(key, made);
    return made.then((file) => {
      if (!this.disposed && this.keys.size < MAX_PAGES && this.cache.set(this.projectId, key, file)) this.keys.add(key);
      return file;
    });
  }

  /** Drops the pages made from the shared cache (the deployment is no longer served). */
  dispose(): void {
    this.disposed = true;
    this.cache.delete(this.projectId, this.keys);
    this.keys.clear();
    this.remembered.clear();
  }

  /** The closest pages this visitor may see, remembered for visitors without tags. */
  private closest(path: string, tags: readonly string[], refusal: Refusal): readonly ManifestPage[] {
    const refused = refusal.paths;
    if (tags.length > 0) {
      return this.suggester.suggest(path, (p) => (!p.audience?.length || opensAudience(tags, p.audience)) && !refused.has(p.path), SUGGESTIONS);
    }
    const key = refusal.key === '' ? path : `${refusal.key}\u0000${path}`;
    const known = this.remembered.get(key);
    if (known) return known;
    const found = this.suggester.suggest(path, (p) => !p.audience?.length && !refused.has(p.path), SUGGESTIONS);
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
    this.remembered.set(key, found);
    return found;
  }
}

/** A request path without the deployment's base (`v1/guides/x` → `guides/x` for base `/v1`). */
function withoutBase(path: string, base: string): string {
  const label = base.replace(/^\/+/, '');
  if (!label) return path;
  if (path === label) return '';
  return path.startsWith(`${label}/`) ? path.slice(label.length + 1) : path;
}

/** Who may keep a prepared file, read back from its headers (see `FileAccess`). */
function accessOf(file: CachedFile): FileAccess {
  const h = file.identity.headers;
  let access: FileAccess = 'public';
  for (let i = 0; i < h.length; i += 2) {
    if (h[i] === 'Cache-Control' && h[i + 1] === CACHE_PRIVATE) return 'private';
    if (h[i] === 'Vary' && h[i + 1]!.includes('Cookie')) access = 'varies';
  }
  return access;
}
