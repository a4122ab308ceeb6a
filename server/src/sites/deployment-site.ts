import { isSitePathLocation, matchRedirect } from '@quire/shared/docs/nav/index';
import { SEARCH_INDEX_DIR } from '@quire/shared/search/records-file';
import type { DeploymentFiles } from '../storage/deployment-store';
import { localDeploymentFiles } from '../storage/local-store';
import type { CompiledPolicy } from '../access/policy-cache';
import { cutForVisitor, findAudienceMarks, variantKey, type AudienceMarks } from './audience-variants';
import { cachedFileOf, type CachedFile, type FileAccess } from './cached-file';
import { SiteFileCache } from './file-cache';
import { gateChromeOf, type GateChrome } from './gate-document';
import { parseManifest, siteOwnedFiles, type DeploymentManifest } from '../deployments/manifest';
import { injectAfterBody, loadPreviewBanner, type PreviewBanner } from './preview-banner';
import { NotFoundSuggestions } from './not-found-suggestions';
import { sitePathOf } from '../deployments/site-path';
import { PAGE_ENTRIES_FILE, parsePageEntries, type FileEntries, type PageEntries } from '../deployments/page-entries';
import { findPageLinks } from './page-links';
import type { Coverage, Refusal } from './page-filter';

/** A file answer: the cached file and what the access gate needs to know about it. */
export interface FileAnswer {
  kind: 'file';
  status: 200 | 404;
  /** the file as a visitor without tags gets it (see `CachedFile.audience` for other visitors) */
  file: CachedFile;
  /** deployment-relative path of the file (`guides/setup.html`) */
  path: string;
  /** the page path when the file is a page's HTML or Markdown (`guides/setup`): what access rules match */
  page?: string;
  /** the tags opening the file when it belongs to a gated page (frontmatter `audience`); absent: ungated */
  audience?: readonly string[];
  /** an index file naming pages (`llms.txt`, `llms-full.txt`, `sitemap.xml`): cut per reader by their access rules (page-filter.ts) */
  listsPages?: true;
  /** a built HTML file (a page's, the not-found page): its chrome names pages, cut per reader by their access rules (page-links.ts) */
  namesPages?: true;
}

/** What a site answers for one request path. */
export type SiteAnswer = FileAnswer | { kind: 'redirect'; status: 307 | 308; location: string } | { kind: 'none' };

/** What is remembered per request URL: a settled answer, or the file whose cached form answers it. */
type Remembered =
  | Exclude<SiteAnswer, FileAnswer>
  | { kind: 'cached'; status: 200 | 404; file: string; page?: string; audience?: readonly string[]; listsPages?: true; namesPages?: true };

/** Per-visitor variants remembered per deployment (each also bounded by the shared cache's bytes). */
const MAX_VARIANTS = 10_000;

const NONE = { kind: 'none' } as const;
/** Request URLs remembered per deployment. */
const MAX_URLS = 5000;
/** Link targets resolved to pages remembered per deployment (page-links.ts). */
const MAX_HREFS = 20_000;

/**
 * One deployment, served from memory; its files come from a `DeploymentStore` (a local
 * directory or a bucket prefix, `storage/deployment-store.ts`).
 *
 * Loading reads `manifest.json` and lists the deployment's regular files (symlinks never count);
 * a request path is only ever mapped onto that list, so nothing outside the deployment can be
 * reached. Files are read, hashed and compressed on their first request and then answered from
 * memory (a read-through cache; concurrent first requests share one read). Resolution order
 * (decisions.md section 6, MINTLIFY-FORMAT.md section 7):
 * `/` → the manifest's `home` page, else the first visible page; redirects of the config
 * (308 permanent / 307); the exact file (`/guides/setup.md`, `/llms.txt`, assets); the page
 * (`/guides/setup` → `guides/setup.html`, `/guides/` → `guides/index.html`); otherwise (and for
 * `/404` itself) the site's 404 page with status 404. `manifest.json` is never served.
 *
 * Gated pages (`audience` in the manifest, decisions.md section 6) are answered like any page, with
 * their tags (`FileAnswer.audience`) on the answer of their HTML and of their `.md`, whatever path
 * form reached them: the access gate (`site-gate.ts`) decides after this path resolution. Built HTML
 * files whose navigation names gated pages are cut per visitor ({@link variant}, audience-variants.ts);
 * what is cached under the file's own key is the variant of a visitor without tags. Files naming
 * pages (built HTML files, index files) are also cut per reader by the project's access rules
 * (page-filter.ts: {@link pageLinks}, {@link pageEntries}, {@link readerVariant}).
 *
 * Files the builder generated (the manifest's `generated` and `assets`, see `siteOwnedFiles`)
 * are served by their type; every other file came from the repository and is served so that it
 * can never run script on the site (`repository-files.ts`).
 *
 * A preview deployment (loaded with `preview`) shows the preview banner (`preview-banner.ts`) at
 * the top of each of its own HTML files: the banner is put in when the file is first read, and
 * the changed bytes are what is hashed, compressed and cached, so serving costs the same as for
 * any page. Production deployments are served exactly as stored.
 */
export class DeploymentSite {
  /** first reads under way, so concurrent first requests share one */
  private readonly loading = new Map<string, Promise<CachedFile>>();
  private disposed = false;
  /** answers already decided, by raw request URL (only synchronous ones: cached files, redirects, 404s) */
  private readonly byUrl = new Map<string, Remembered>();
  private readonly pageFiles: Map<string, string>;
  private readonly homeFile: string | undefined;
  private readonly notFoundFile: string;
  private readonly siteOwned: Set<string>;
  /** page path of each page file (HTML and `.md`): the banner's "current page", the path access rules match */
  private readonly pageOfFile: Map<string, string>;
  /** tags of each file of a gated page (its HTML and its `.md`) */
  private readonly gatedFiles = new Map<string, readonly string[]>();
  /** shared-cache keys of the per-visitor variants made so far (freed with the deployment) */
  private readonly variantKeys = new Set<string>();
  /** those keys by file and visible-tag key: the same key string on every request (its hash is computed once) */
  private readonly variantKeysByFile = new Map<string, Map<string, string>>();
  /** variants being made, so concurrent first requests share one */
  private readonly variantsLoading = new Map<string, Promise<CachedFile>>();
  /** the gate page's chrome, made from the not-found page on first use */
  private chrome: GateChrome | null | Promise<GateChrome | null> | undefined;
  /** the not-found page's "Did you mean" links, made on first use */
  private suggestions: NotFoundSuggestions | undefined;
  /** the builder's index files naming pages (page-entries.ts) */
  private readonly listingFiles: Set<string>;
  /** the builder's HTML files (their chrome names pages: page-links.ts) */
  private readonly builtPages: Set<string>;
  /** the page links of each built HTML file as loaded, found on first use (page-links.ts) */
  private readonly links = new WeakMap<CachedFile, FileEntries>();
  /** the manifest index of the page each link target leads to (-1: none), by target */
  private readonly pageOfTarget = new Map<string, number>();
  /** each manifest page's index, by path */
  private pageIndexes: Map<string, number> | undefined;
  /** the gate page's chrome cut for a reader, by the reader's form of the not-found page (page-filter.ts `gateChromeFor`) */
  readonly readerChromes = new WeakMap<CachedFile, GateChrome | null>();
  /** the page entries of the index files, read on first use (page-filter.ts) */
  private entries: PageEntries | null | Promise<PageEntries | null> | undefined;
  /**
   * The page filter's memo (page-filter.ts): the named pages a compiled policy's rules cover, by
   * file and rules passed; an entry goes with its policy object (a changed policy is a new object).
   */
  readonly coverageMemo = new WeakMap<CompiledPolicy, Map<string, Coverage>>();
  /** every manifest page's path, in manifest order: what the indexes of HTML files' page links point into */
  readonly pagePaths: readonly string[];

  /** Whether any page of the deployment is gated (frontmatter `audience`): answers about its content may differ per reader. */
  get hasGatedPages(): boolean {
    return this.gatedFiles.size > 0;
  }

  private constructor(
    /** unique key of the deployment (`DeploymentFiles.key`: its absolute directory, or its bucket prefix) */
    readonly dir: string,
    /** where the deployment's files are read from (the site's search reads its index through it: site-search.ts) */
    readonly source: DeploymentFiles,
    readonly manifest: DeploymentManifest,
    private readonly files: Set<string>,
    private readonly cache: SiteFileCache,
    /** the project the deployment belongs to (its share of the cache) */
    readonly projectId: string,
    /** a preview deployment's banner; undefined for production */
    private readonly banner: PreviewBanner | undefined,
    /** the preview channel's name (`feature-login`) of a preview deployment; undefined for production */
    readonly previewName: string | undefined,
    /**
     * the URL prefix a documentation version deployment is served under (`/v1`; version-routing.ts):
     * request URLs carry it and it is taken off before resolving; root-relative redirect targets get it. '' otherwise.
     */
    readonly basePath = '',
  ) {
    this.notFoundFile = manifest.notFound ?? '404.html';
    this.siteOwned = siteOwnedFiles(manifest);
    this.pageFiles = new Map(manifest.pages.filter((p) => files.has(p.file)).map((p) => [p.path, p.file]));
    this.pageOfFile = new Map([...this.pageFiles].map(([page, file]) => [file, page]));
    this.listingFiles = new Set([...this.siteOwned].filter((f) => f === 'sitemap.xml' || /(?:^|\/)llms(?:-full)?\.txt$/.test(f)));
    this.builtPages = new Set([...this.siteOwned].filter((f) => f.endsWith('.html') && files.has(f)));
    this.pagePaths = manifest.pages.map((p) => p.path);
    for (const p of manifest.pages) {
      const md = `${p.path}.md`;
      if (files.has(md) && !this.pageOfFile.has(md)) this.pageOfFile.set(md, p.path);
      if (!p.audience || p.audience.length === 0) continue;
      // a page's HTML and its Markdown are gated the same, and so is any file named like them
      this.gatedFiles.set(p.file, p.audience);
      this.gatedFiles.set(md, p.audience);
    }
    const home = manifest.home ? this.pageFiles.get(manifest.home) : undefined;
    const first = manifest.pages.find((p) => !p.hidden && files.has(p.file)) ?? manifest.pages.find((p) => files.has(p.file));
    this.homeFile = home ?? first?.file ?? (files.has('index.html') ? 'index.html' : undefined);
  }

  /**
   * Loads a deployment (manifest + file list; no file content yet).
   * @param from an absolute deployment directory, or a deployment of a store (`DeploymentStore.open`)
   * @param cache the memory shared with other deployments (default: a private one with the
   *   default limits)
   * @param projectId the project whose share of `cache` the files count against (default: the
   *   manifest's `projectId`)
   * @param options `preview`: the preview channel's name (`feature-login`) when the deployment is
   *   a preview (its pages get the preview banner); omitted for production. `basePath`: the prefix
   *   (`/v1`) a documentation version deployment is served under.
   * @throws Error when the manifest is missing or invalid or the directory cannot be listed.
   */
  static async load(
    from: string | DeploymentFiles,
    cache = new SiteFileCache(),
    projectId?: string,
    options: { preview?: string; basePath?: string } = {},
  ): Promise<DeploymentSite> {
    const source = typeof from === 'string' ? localDeploymentFiles(from) : from;
    const readManifest = async () => parseManifest((await source.read('manifest.json')).body.toString('utf8'), `${source.key}/manifest.json`);
    const [manifest, files] = await Promise.all([readManifest(), source.list()]);
    files.delete('manifest.json');
    const banner = options.preview !== undefined ? await loadPreviewBanner(source, files, options.preview) : undefined;
    return new DeploymentSite(source.key, source, manifest, files, cache, projectId ?? manifest.projectId, banner, options.preview, options.basePath ?? '');
  }

  /** Drops every cached file from the shared cache (the deployment is no longer served). */
  dispose(): void {
    this.disposed = true;
    this.cache.delete(this.projectId, [...this.files].map((f) => this.keyOf(f)));
    this.cache.delete(this.projectId, this.variantKeys);
    this.variantKeys.clear();
    this.variantKeysByFile.clear();
    this.loading.clear();
    this.variantsLoading.clear();
    this.byUrl.clear();
    this.suggestions?.dispose();
  }

  /** The deployment-relative file of the site's not-found page when the deployment has one (it carries the site's chrome). */
  get notFoundPage(): string | undefined {
    return this.files.has(this.notFoundFile) ? this.notFoundFile : undefined;
  }

  /**
   * A file as a visitor whose token opens `tags` sees it: the file with the navigation entries of
   * gated pages their tags do not open cut out (audience-variants.ts), hashed, compressed and
   * cached per (file, visible-tag key) in the shared cache, so a returning visitor costs a lookup.
   * A visitor whose tags the file never names gets `answer.file` itself.
   * Variants showing gated entries, and every form of a gated page, are `private, no-store`.
   * @param answer a file answer of this deployment ({@link answerUrl})
   * @param tags the visitor's tags (the profile's current ones)
   */
  variant(answer: FileAnswer, tags: readonly string[]): CachedFile | Promise<CachedFile> {
    const source = answer.file.audience;
    if (!source || tags.length === 0) return answer.file;
    const key = variantKey(source.marks, tags);
    if (key === '') return answer.file;
    return this.cachedVariant(answer, key, 'private', () => ({ source: source.source, marks: source.marks, tags, cuts: [] }));
  }

  /**
   * A file naming pages as one reader may read it (page-filter.ts): cut by `make`'s ranges and
   * marks, hashed, compressed and cached per (file, `key`) like {@link variant}'s forms.
   * @param key what tells this form apart from the file's others (page-filter.ts makes it; never
   *   equal to an audience variant's key, which holds no U+0001)
   * @param access the form's caching (`private` when it shows pages only some readers open)
   */
  readerVariant(answer: FileAnswer, key: string, access: FileAccess, make: () => VariantCut): CachedFile | Promise<CachedFile> {
    return this.cachedVariant(answer, key, access, make);
  }

  /**
   * Where a built HTML file's chrome names pages (page-links.ts), found in the file as loaded (its
   * marked source when it has audience marks) on first use and kept while the file is cached; the
   * indexes are into {@link pagePaths}. The not-found page is searched whole (the theme writes its body).
   * @param answer a file answer of this deployment with `namesPages`
   */
  pageLinks(answer: FileAnswer): FileEntries {
    const known = this.links.get(answer.file);
    if (known) return known;
    const source = answer.file.audience?.source ?? answer.file.identity.body;
    const found = findPageLinks(source, (href) => this.pageOfHref(href), answer.status === 404);
    this.links.set(answer.file, found);
    return found;
  }

  /**
   * The index (into {@link pagePaths}) of the page a link of a built file leads to: a root-relative
   * target under the base path that this deployment answers with a page's HTML or Markdown
   * (`/guides/setup`, `/guides/`, `/v1/guides/setup.md`; query and fragment ignored); undefined for
   * anything else (other sites, assets, redirects, the not-found page).
   */
  private pageOfHref(href: string): number | undefined {
    let known = this.pageOfTarget.get(href);
    if (known === undefined) {
      known = -1;
      if (href.startsWith('/') && !href.startsWith('//')) {
        const target = sitePathOf(this.basePath ? this.underBase(href) : href);
        const decision = target ? this.decide(target.path, target.trailingSlash) : undefined;
        if (decision?.kind === 'cached' && decision.status === 200 && decision.page !== undefined) {
          this.pageIndexes ??= new Map(this.pagePaths.map((p, i) => [p, i]));
          known = this.pageIndexes.get(decision.page) ?? -1;
        }
      }
      if (this.pageOfTarget.size >= MAX_HREFS) this.pageOfTarget.clear();
      this.pageOfTarget.set(href, known);
    }
    return known === -1 ? undefined : known;
  }

  /**
   * The page entries of the deployment's index files (page-entries.ts), read once on first use;
   * null when the deployment has none (built before them).
   * @throws (through the promise) when the file cannot be read or is malformed; read again on the next call
   */
  pageEntries(): PageEntries | null | Promise<PageEntries | null> {
    if (this.entries !== undefined) return this.entries;
    if (!this.files.has(PAGE_ENTRIES_FILE)) return (this.entries = null);
    const loading = this.source.read(PAGE_ENTRIES_FILE).then(
      ({ body }) => {
        const parsed = parsePageEntries(body.toString('utf8'));
        if (this.entries === loading) this.entries = parsed;
        return parsed;
      },
      (err: unknown) => {
        if (this.entries === loading) this.entries = undefined;
        throw err;
      },
    );
    this.entries = loading;
    return loading;
  }

  /** A per-reader form of a file, from the shared cache or made by `make` (concurrent first requests share one). */
  private cachedVariant(answer: FileAnswer, key: string, access: FileAccess, make: () => VariantCut): CachedFile | Promise<CachedFile> {
    const cacheKey = this.variantCacheKey(answer.path, key);
    const hit = this.cache.get(this.projectId, cacheKey);
    if (hit) return hit;
    const pending = this.variantsLoading.get(cacheKey);
    if (pending) return pending;
    const origin = this.siteOwned.has(answer.path) ? 'site' : 'repository';
    const cut = make();
    const body = cutForVisitor(cut.source, cut.marks, cut.tags, cut.cuts);
    const making = cachedFileOf(body, answer.file.audience?.modified ?? new Date(answer.file.mtimeSeconds * 1000), answer.path, origin, {
      access,
      fast: true,
      connectSrc: this.manifest.connectSrc,
      basePath: this.basePath,
    }).then(
      (made) => {
        this.variantsLoading.delete(cacheKey);
        if (!this.disposed && this.variantKeys.size < MAX_VARIANTS && this.cache.set(this.projectId, cacheKey, made)) {
          this.variantKeys.add(cacheKey);
          let byKey = this.variantKeysByFile.get(answer.path);
          if (!byKey) this.variantKeysByFile.set(answer.path, (byKey = new Map()));
          byKey.set(key, cacheKey);
        }
        return made;
      },
      (err: unknown) => {
        this.variantsLoading.delete(cacheKey);
        throw err;
      },
    );
    this.variantsLoading.set(cacheKey, making);
    return making;
  }

  /** The shared-cache key of a file's variant (the remembered string when the variant was made before). */
  private variantCacheKey(file: string, key: string): string {
    return this.variantKeysByFile.get(file)?.get(key) ?? `${this.keyOf(file)}\0${key}`;
  }

  /**
   * The not-found page for a request that ended on it, with links to the pages closest to the
   * requested path (not-found-suggestions.ts).
   * @param form the not-found page as this visitor gets it (`answer.file`, its {@link variant} or its reader's form)
   * @param tags the visitor's audience tags
   * @param refusal the pages the project's access rules refuse the visitor (page-filter.ts): never suggested
   */
  notFoundFor(rawUrl: string, form: CachedFile, tags: readonly string[], refusal: Refusal): CachedFile | Promise<CachedFile> {
    if (this.disposed) return form;
    this.suggestions ??= new NotFoundSuggestions(
      this.manifest.pages.filter((p) => this.pageFiles.get(p.path) === p.file),
      this.cache,
      this.projectId,
      this.dir,
    );
    return this.suggestions.pageFor(rawUrl, form, tags, refusal);
  }

  /**
   * The site's chrome for the gate page (gate-document.ts): the not-found page as a visitor without
   * tags sees it, cut around its content; made once. null when the deployment has no not-found page
   * in the theme's layout (or it cannot be read): the gate page is then the standalone one.
   */
  gateChrome(): GateChrome | null | Promise<GateChrome | null> {
    if (this.chrome !== undefined) return this.chrome;
    const file = this.notFoundPage;
    if (!file || !this.siteOwned.has(file)) return (this.chrome = null);
    const cached = this.get(file);
    if (!(cached instanceof Promise)) return (this.chrome = gateChromeOf(cached.identity.body));
    const making = cached.then(
      (f) => (this.chrome = gateChromeOf(f.identity.body)),
      () => {
        this.chrome = undefined; // try again on the next gate page
        return null;
      },
    );
    this.chrome = making;
    return making;
  }

  /**
   * The answer for a raw request target (`/guides/setup?x=1`): validated and decoded with
   * `sitePathOf` (refused paths answer `none`, the plain 404), then {@link answer}. Settled
   * answers are remembered by URL (at most {@link MAX_URLS}, then forgotten at once), so a hot
   * page costs two Map lookups and the cache's recency update.
   */
  answerUrl(rawUrl: string): SiteAnswer | Promise<SiteAnswer> {
    const hit = this.byUrl.get(rawUrl);
    if (hit) {
      if (hit.kind !== 'cached') return hit;
      const file = this.cache.get(this.projectId, this.keyOf(hit.file));
      if (file) return fileAnswer(hit, file);
      // evicted since: read it again below
    }
    const target = sitePathOf(this.basePath ? this.underBase(rawUrl) : rawUrl);
    if (!target) return NONE;
    const decision = this.decide(target.path, target.trailingSlash);
    const answer = this.settle(decision);
    if (!(answer instanceof Promise) && !this.disposed) {
      if (this.byUrl.size >= MAX_URLS) this.byUrl.clear();
      this.byUrl.set(rawUrl, decision);
    }
    return answer;
  }

  /**
   * Decides what to answer for a decoded, validated site path (see `sitePathOf`): `""` is `/`.
   * Only the first request of each file touches the disk (or the bucket); later answers are synchronous.
   */
  answer(sitePath: string, trailingSlash: boolean): SiteAnswer | Promise<SiteAnswer> {
    return this.settle(this.decide(sitePath, trailingSlash));
  }

  /**
   * A request URL of a version deployment without its base path (`/v1/guides?x` → `/guides?x`,
   * `/v1` → `/`); `''` (refused by `sitePathOf`) when the URL is not under the base path.
   */
  private underBase(rawUrl: string): string {
    const base = this.basePath;
    if (!rawUrl.startsWith(base)) return '';
    const next = rawUrl.charAt(base.length);
    if (next === '') return '/';
    if (next === '/') return rawUrl.slice(base.length);
    if (next === '?' || next === '#') return `/${rawUrl.slice(base.length)}`;
    return '';
  }

  /**
   * Whether a decoded site path (see `sitePathOf`; relative to the base path) names something of
   * this deployment (a page, a file, a redirect) rather than its not-found page. No file is read.
   */
  has(sitePath: string, trailingSlash: boolean): boolean {
    const decision = this.decide(sitePath, trailingSlash);
    return decision.kind === 'redirect' || (decision.kind === 'cached' && decision.status === 200);
  }

  /** Which file (or redirect, or nothing) answers a site path; no file is read. */
  private decide(sitePath: string, trailingSlash: boolean): Remembered {
    if (sitePath === '') return this.homeFile ? this.found(this.homeFile) : this.notFound();
    // the search index holds gated pages' text: only the search endpoint reads it (site-search.ts)
    if (sitePath === SEARCH_INDEX_DIR || sitePath.startsWith(`${SEARCH_INDEX_DIR}/`)) return this.notFound();
    // the page entries name every page, protected or not: only the page filter reads them
    if (sitePath === PAGE_ENTRIES_FILE) return this.notFound();
    if (!sitePath.startsWith('_quire/') && this.manifest.redirects.length > 0) {
      const hit = matchRedirect(this.manifest.redirects, `/${sitePath}${trailingSlash ? '/' : ''}`);
      if (hit) return { kind: 'redirect', status: hit.status, location: this.basePath && isSitePathLocation(hit.location) ? this.basePath + hit.location : hit.location };
    }
    const file = this.fileFor(sitePath);
    return file && file !== this.notFoundFile ? this.found(file) : this.notFound();
  }

  /** The decision for an existing file: its page and, for a gated page's files, their tags. */
  private found(file: string): Remembered {
    const page = this.pageOfFile.get(file);
    const audience = this.gatedFiles.get(file);
    return {
      kind: 'cached',
      status: 200,
      file,
      ...(page !== undefined ? { page } : {}),
      ...(audience ? { audience } : {}),
      ...(this.listingFiles.has(file) ? { listsPages: true as const } : {}),
      ...(this.builtPages.has(file) ? { namesPages: true as const } : {}),
    };
  }

  /** The deployment file a non-root path maps to, or undefined. */
  private fileFor(p: string): string | undefined {
    if (this.files.has(p)) return p;
    const page = this.pageFiles.get(p) ?? this.pageFiles.get(`${p}/index`);
    if (page) return page;
    if (this.files.has(`${p}.html`)) return `${p}.html`;
    if (this.files.has(`${p}/index.html`)) return `${p}/index.html`;
    return undefined;
  }

  private notFound(): Remembered {
    if (!this.files.has(this.notFoundFile)) return NONE;
    return { kind: 'cached', status: 404, file: this.notFoundFile, ...(this.builtPages.has(this.notFoundFile) ? { namesPages: true as const } : {}) };
  }

  /** The answer of a decision: synchronous when its file is cached (the hot path), a promise on a file's first request. */
  private settle(decision: Remembered): SiteAnswer | Promise<SiteAnswer> {
    if (decision.kind !== 'cached') return decision;
    const cached = this.get(decision.file);
    if (cached instanceof Promise) return cached.then((f) => fileAnswer(decision, f));
    return fileAnswer(decision, cached);
  }

  /** Key of a file in the shared cache: unique across deployments. */
  private keyOf(file: string): string {
    return `${this.dir}\0${file}`;
  }

  /** The cached form of a listed file, reading it on first use. */
  private get(file: string): CachedFile | Promise<CachedFile> {
    const hit = this.cache.get(this.projectId, this.keyOf(file));
    if (hit) return hit;
    const pending = this.loading.get(file);
    if (pending) return pending;
    const origin = this.siteOwned.has(file) ? 'site' : 'repository';
    const html = origin === 'site' && file.endsWith('.html');
    const banner = this.banner && html ? this.banner : undefined;
    const gated = this.gatedFiles.has(file);
    // llms-full.txt marks gated pages' blocks like HTML files mark gated navigation (builder/llms-full.ts)
    const marked = html || (origin === 'site' && (file === 'llms-full.txt' || file.endsWith('/llms-full.txt')));
    const loading = this.source
      .read(file)
      .then(({ body, modified }) => {
        const built = banner ? injectAfterBody(body, banner(this.pageOfFile.get(file))) : body;
        return formOf(built, modified, file, origin, marked, gated, this.manifest.connectSrc, this.basePath);
      })
      .then(
        (loaded) => {
          this.loading.delete(file);
          if (!this.disposed) this.cache.set(this.projectId, this.keyOf(file), loaded);
          return loaded;
        },
        (err: unknown) => {
          this.loading.delete(file);
          throw err;
        },
      );
    this.loading.set(file, loading);
    return loading;
  }
}

/** What a per-reader form is cut from (audience-variants.ts `cutForVisitor`'s arguments). */
export interface VariantCut {
  source: Buffer;
  marks: AudienceMarks | null;
  tags: readonly string[];
  cuts: readonly (readonly [number, number])[];
}

/** The file answer of a decision whose file is cached. */
function fileAnswer(decision: Extract<Remembered, { kind: 'cached' }>, file: CachedFile): FileAnswer {
  const answer: FileAnswer = { kind: 'file', status: decision.status, file, path: decision.file };
  if (decision.page !== undefined) answer.page = decision.page;
  if (decision.audience) answer.audience = decision.audience;
  if (decision.listsPages) answer.listsPages = true;
  if (decision.namesPages) answer.namesPages = true;
  return answer;
}

/**
 * The cached form of a file's bytes. A built HTML file naming gated pages in its navigation (or an
 * `llms-full.txt` holding gated pages' blocks: `marked`) keeps
 * its bytes and marks for per-visitor variants, and its own representations are those of a visitor
 * without tags (`varies`). Every form of a gated page's files is `private` (only visitors with access
 * ever get them).
 */
async function formOf(body: Buffer, modified: Date, file: string, origin: 'site' | 'repository', marked: boolean, gated: boolean, connectSrc?: readonly string[], basePath = ''): Promise<CachedFile> {
  const marks = marked ? findAudienceMarks(body) : null;
  const access: FileAccess = gated ? 'private' : marks ? 'varies' : 'public';
  const options = { access, basePath, ...(connectSrc ? { connectSrc } : {}) };
  if (!marks) return cachedFileOf(body, modified, file, origin, options);
  const cached = await cachedFileOf(cutForVisitor(body, marks, []), modified, file, origin, options);
  cached.audience = { source: body, marks, modified };
  cached.size += body.length;
  return cached;
}
