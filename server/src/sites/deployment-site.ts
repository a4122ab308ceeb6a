import { matchRedirect } from '@quire/shared/docs/nav/index';
import type { DeploymentFiles } from '../storage/deployment-store';
import { localDeploymentFiles } from '../storage/local-store';
import { cachedFileOf, type CachedFile } from './cached-file';
import { SiteFileCache } from './file-cache';
import { parseManifest, siteOwnedFiles, type DeploymentManifest } from './manifest';
import { sitePathOf } from './request-path';

/** What a site answers for one request path. */
export type SiteAnswer =
  | { kind: 'file'; status: 200 | 404; file: CachedFile }
  | { kind: 'redirect'; status: 307 | 308; location: string }
  | { kind: 'none' };

/** What is remembered per request URL: a settled answer, or the file whose cached form answers it. */
type Remembered = SiteAnswer | { kind: 'cached'; status: 200 | 404; file: string };

const NONE: SiteAnswer = { kind: 'none' };
/** Request URLs remembered per deployment. */
const MAX_URLS = 5000;

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
 * `/404` itself) the site's 404 page with status 404. `manifest.json` and gated pages
 * (`audience` in the manifest; no token gate yet) are never served.
 *
 * Files the builder generated (the manifest's `generated` and `assets`, see `siteOwnedFiles`)
 * are served by their type; every other file came from the repository and is served so that it
 * can never run script on the site (`repository-files.ts`).
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

  private constructor(
    /** unique key of the deployment (`DeploymentFiles.key`: its absolute directory, or its bucket prefix) */
    readonly dir: string,
    private readonly source: DeploymentFiles,
    readonly manifest: DeploymentManifest,
    private readonly files: Set<string>,
    private readonly cache: SiteFileCache,
    /** the project the deployment belongs to (its share of the cache) */
    private readonly projectId: string,
  ) {
    this.notFoundFile = manifest.notFound ?? '404.html';
    this.siteOwned = siteOwnedFiles(manifest);
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
   * Loads a deployment (manifest + file list; no file content yet).
   * @param from an absolute deployment directory, or a deployment of a store (`DeploymentStore.open`)
   * @param cache the memory shared with other deployments (default: a private one with the
   *   default limits)
   * @param projectId the project whose share of `cache` the files count against (default: the
   *   manifest's `projectId`)
   * @throws Error when the manifest is missing or invalid or the directory cannot be listed.
   */
  static async load(from: string | DeploymentFiles, cache = new SiteFileCache(), projectId?: string): Promise<DeploymentSite> {
    const source = typeof from === 'string' ? localDeploymentFiles(from) : from;
    const readManifest = async () => parseManifest((await source.read('manifest.json')).body.toString('utf8'), `${source.key}/manifest.json`);
    const [manifest, files] = await Promise.all([readManifest(), source.list()]);
    files.delete('manifest.json');
    return new DeploymentSite(source.key, source, manifest, files, cache, projectId ?? manifest.projectId);
  }

  /** Drops every cached file from the shared cache (the deployment is no longer served). */
  dispose(): void {
    this.disposed = true;
    this.cache.delete(this.projectId, [...this.files].map((f) => this.keyOf(f)));
    this.loading.clear();
    this.byUrl.clear();
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
      if (file) return { kind: 'file', status: hit.status, file };
      // evicted since: read it again below
    }
    const target = sitePathOf(rawUrl);
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

  /** Which file (or redirect, or nothing) answers a site path; no file is read. */
  private decide(sitePath: string, trailingSlash: boolean): Remembered {
    if (sitePath === '') return this.homeFile ? { kind: 'cached', status: 200, file: this.homeFile } : this.notFound();
    if (!sitePath.startsWith('_quire/') && this.manifest.redirects.length > 0) {
      const hit = matchRedirect(this.manifest.redirects, `/${sitePath}${trailingSlash ? '/' : ''}`);
      if (hit) return { kind: 'redirect', status: hit.status, location: hit.location };
    }
    const file = this.fileFor(sitePath);
    return file && file !== this.notFoundFile ? { kind: 'cached', status: 200, file } : this.notFound();
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
    return this.files.has(this.notFoundFile) ? { kind: 'cached', status: 404, file: this.notFoundFile } : NONE;
  }

  /** The answer of a decision: synchronous when its file is cached (the hot path), a promise on a file's first request. */
  private settle(decision: Remembered): SiteAnswer | Promise<SiteAnswer> {
    if (decision.kind !== 'cached') return decision;
    const { status } = decision;
    const cached = this.get(decision.file);
    if (cached instanceof Promise) return cached.then((f) => ({ kind: 'file', status, file: f }));
    return { kind: 'file', status, file: cached };
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
    const loading = this.source.read(file).then(({ body, modified }) => cachedFileOf(body, modified, file, origin)).then(
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
