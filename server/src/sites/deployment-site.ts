import path from 'node:path';
import { matchRedirect } from '@quire/shared/docs/nav/index';
import { loadCachedFile, type CachedFile } from './cached-file';
import { readManifest, type DeploymentManifest } from './manifest';
import { sitePathOf } from './request-path';
import { listSiteFiles } from './site-files';

/** What a site answers for one request path. */
export type SiteAnswer =
  | { kind: 'file'; status: 200 | 404; file: CachedFile }
  | { kind: 'redirect'; status: 307 | 308; location: string }
  | { kind: 'none' };

const NONE: SiteAnswer = { kind: 'none' };
/** Request URLs remembered per deployment. */
const MAX_URLS = 5000;

/**
 * Bytes of file content (all encodings) that loaded deployments may keep in memory together,
 * shared by every deployment of one process; past it, files are read on each request.
 */
export class CacheBudget {
  constructor(public remaining = 512 * 1024 * 1024) {}
}

/**
 * One deployment directory, served from memory.
 *
 * Loading reads `manifest.json` and lists the directory's regular files (symlinks never count);
 * a request path is only ever mapped onto that list, so nothing outside the deployment can be
 * reached. Files are read, hashed and compressed on their first request and then answered from
 * memory (a read-through cache; concurrent first requests share one read). Resolution order
 * (decisions.md section 6, MINTLIFY-FORMAT.md section 7):
 * `/` → the manifest's `home` page, else the first visible page; redirects of the config
 * (308 permanent / 307); the exact file (`/guides/setup.md`, `/llms.txt`, assets); the page
 * (`/guides/setup` → `guides/setup.html`, `/guides/` → `guides/index.html`); otherwise (and for
 * `/404` itself) the site's 404 page with status 404. `manifest.json` and gated pages
 * (`audience` in the manifest; no token gate yet) are never served.
 */
export class DeploymentSite {
  private readonly cache = new Map<string, CachedFile | Promise<CachedFile>>();
  private cachedBytes = 0;
  private disposed = false;
  /** answers already decided, by raw request URL (only synchronous ones: cached files, redirects, 404s) */
  private readonly byUrl = new Map<string, SiteAnswer>();
  private readonly pageFiles: Map<string, string>;
  private readonly homeFile: string | undefined;
  private readonly notFoundFile: string;

  private constructor(
    /** absolute deployment directory */
    readonly dir: string,
    readonly manifest: DeploymentManifest,
    private readonly files: Set<string>,
    private readonly budget: CacheBudget,
  ) {
    this.notFoundFile = manifest.notFound ?? '404.html';
    // Gated pages need an audience token (decisions.md section 6); until that gate exists here,
    // neither their HTML nor their Markdown is ever served.
    for (const p of manifest.pages) {
      if (p.audience && p.audience.length > 0) {
        files.delete(p.file);
        files.delete(`${p.path}.md`);
      }
    }
    this.pageFiles = new Map(manifest.pages.filter((p) => files.has(p.file)).map((p) => [p.path, p.file]));
    const home = manifest.home ? this.pageFiles.get(manifest.home) : undefined;
    const first = manifest.pages.find((p) => !p.hidden && files.has(p.file)) ?? manifest.pages.find((p) => files.has(p.file));
    this.homeFile = home ?? first?.file ?? (files.has('index.html') ? 'index.html' : undefined);
  }

  /**
   * Loads a deployment directory (manifest + file list; no file content yet).
   * @param budget the memory shared with other deployments (default: a private 512 MiB one)
   * @throws Error when the manifest is missing or invalid or the directory cannot be listed.
   */
  static async load(dir: string, budget = new CacheBudget()): Promise<DeploymentSite> {
    const [manifest, files] = await Promise.all([readManifest(dir), listSiteFiles(dir)]);
    files.delete('manifest.json');
    return new DeploymentSite(dir, manifest, files, budget);
  }

  /** Drops every cached file and gives its memory back to the shared budget (the deployment is no longer served). */
  dispose(): void {
    this.disposed = true;
    this.budget.remaining += this.cachedBytes;
    this.cachedBytes = 0;
    this.cache.clear();
    this.byUrl.clear();
  }

  /**
   * The answer for a raw request target (`/guides/setup?x=1`): validated and decoded with
   * `sitePathOf` (refused paths answer `none`, the plain 404), then {@link answer}. Settled
   * answers are remembered by URL (at most {@link MAX_URLS}, then forgotten at once), so a hot
   * page costs one Map lookup.
   */
  answerUrl(rawUrl: string): SiteAnswer | Promise<SiteAnswer> {
    const hit = this.byUrl.get(rawUrl);
    if (hit) return hit;
    const target = sitePathOf(rawUrl);
    if (!target) return NONE;
    const answer = this.answer(target.path, target.trailingSlash);
    if (!(answer instanceof Promise) && !this.disposed) {
      if (this.byUrl.size >= MAX_URLS) this.byUrl.clear();
      this.byUrl.set(rawUrl, answer);
    }
    return answer;
  }

  /**
   * Decides what to answer for a decoded, validated site path (see `sitePathOf`): `""` is `/`.
   * Only the first request of each file touches the disk; later answers are synchronous.
   */
  answer(sitePath: string, trailingSlash: boolean): SiteAnswer | Promise<SiteAnswer> {
    if (sitePath === '') return this.homeFile ? this.fileAnswer(this.homeFile, 200) : this.notFound();
    if (!sitePath.startsWith('_quire/') && this.manifest.redirects.length > 0) {
      const hit = matchRedirect(this.manifest.redirects, `/${sitePath}${trailingSlash ? '/' : ''}`);
      if (hit) return { kind: 'redirect', status: hit.status, location: hit.location };
    }
    const file = this.fileFor(sitePath);
    return file && file !== this.notFoundFile ? this.fileAnswer(file, 200) : this.notFound();
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

  private notFound(): SiteAnswer | Promise<SiteAnswer> {
    return this.files.has(this.notFoundFile) ? this.fileAnswer(this.notFoundFile, 404) : NONE;
  }

  /** Synchronous when the file is cached (the hot path), a promise on its first request. */
  private fileAnswer(file: string, status: 200 | 404): SiteAnswer | Promise<SiteAnswer> {
    const cached = this.get(file);
    if (cached instanceof Promise) return cached.then((f) => ({ kind: 'file', status, file: f }));
    return { kind: 'file', status, file: cached };
  }

  /** The cached form of a listed file, reading it on first use. */
  private get(file: string): CachedFile | Promise<CachedFile> {
    const hit = this.cache.get(file);
    if (hit) return hit;
    const loading = loadCachedFile(path.join(this.dir, ...file.split('/')), file).then(
      (loaded) => {
        if (!this.disposed && loaded.size <= this.budget.remaining) {
          this.cache.set(file, loaded);
          this.cachedBytes += loaded.size;
          this.budget.remaining -= loaded.size;
        } else this.cache.delete(file);
        return loaded;
      },
      (err: unknown) => {
        this.cache.delete(file);
        throw err;
      },
    );
    this.cache.set(file, loading);
    return loading;
  }
}
