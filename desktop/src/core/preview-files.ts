import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import mime from 'mime';
import { SITE_JS_FILES } from '@quire/shared/site/asset-files';
import { isStaticFile } from '@quire/shared/site/published-files';
import { INERT_CSP, repositoryFileType } from '@quire/shared/site/repository-files';
import type { Core } from './core';
import { docsRootOf } from './docs-root';
import type { LocalFolders } from './local-folder';
import { isLocalProject } from './local-folder';
import { PREVIEW_FRAME_SCRIPT } from './preview-frame-script';
import { REVIEW_DIFF_FRAME_SCRIPT } from './review-diff-frame-script';
import { PREVIEW_PREFIX, previewBasePath } from './preview-urls';
import { isUnreachable, readFileBytes } from './server-client';

/**
 * The preview's URL space: the files a published site serves beside its pages (images, logos,
 * favicon, downloads: shared/src/site/published-files.ts `isStaticFile`, copied from the docs root to
 * the site root), and the third-party assets its pages load (KaTeX's stylesheet and fonts), served to
 * the preview frames by the core (web-server.ts in web mode, the Electron shell's `file:` handler).
 *
 * - `/_quire-preview/<project id>/<path under the docs root>`: the workspace file's bytes (its local
 *   text; for a binary file the bytes written here (an added image), else the base's: of a local folder
 *   from disk, of a server project from the store, fetched once from the server's `files.readBytes`
 *   and kept there for offline work), typed by extension (the `mime`
 *   package) by the site's rule for repository files (decisions.md section 10, shared/src/site/repository-files.ts):
 *   passive types as they are, SVG with an inert policy, other text as `text/plain`, the rest a download;
 * - `/_quire-preview/_assets/katex.css` and `/_quire-preview/_assets/fonts/<name>.woff2`: KaTeX's, from the
 *   installed `katex` package (no CDN); `site.js`: the site's deferred scripts, concatenated as a build
 *   does (shared/src/node/site-assets.ts); `mermaid.js`: mermaid's browser bundle, as the site serves it;
 *   `frame.js`: the preview frame's own script (preview-frame-script.ts, then review-diff-frame-script.ts for the rendered diff of a review).
 * The preview renderer (preview-render.ts) points the page's root-relative URLs at the first form.
 */

/** How a request into the preview's URL space is answered. */
export type PreviewFileAnswer =
  | { status: 200; headers: Record<string, string>; body: Buffer }
  | { status: 404; message: string };

/** The headers of a repository file by the site's rule (shared/src/site/repository-files.ts), revalidated on every use. */
function fileHeaders(file: string): Record<string, string> {
  const answer = repositoryFileType(mime.getType(file));
  return {
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
    'content-type': answer.type.startsWith('text/') ? `${answer.type}; charset=utf-8` : answer.type,
    ...(answer.inert ? { 'content-security-policy': INERT_CSP } : {}),
    ...(answer.download ? { 'content-disposition': 'attachment' } : {}),
  };
}

/** True for a docs-root file a site publishes as it is (shared/src/site/published-files.ts `isStaticFile`). */
export function isPublishedFile(file: string): boolean {
  return isStaticFile(file);
}

/**
 * The URL the preview serves a workspace file at (`/_quire-preview/<project id>/images/a.png`), or
 * null for a file it does not serve (outside the docs root, or not a published file).
 * @throws CoreError NOT_FOUND when the project was not opened
 */
export function previewUrlOf(core: Core, projectId: string, repoPath: string): string | null {
  const { docsRoot } = docsRootOf(core, projectId);
  const prefix = docsRoot ? `${docsRoot}/` : '';
  if (!repoPath.startsWith(prefix) || !isPublishedFile(repoPath.slice(prefix.length))) return null;
  return `${previewBasePath(projectId)}/${repoPath.slice(prefix.length).split('/').map(encodeURIComponent).join('/')}`;
}

let katexDir: string | undefined;
let siteJs: Buffer | undefined;
let mermaidJs: Buffer | undefined;

/** The `dist` folder of the installed `katex` (a dependency of the shared renderer). */
function katexDist(): string {
  if (katexDir) return katexDir;
  const require = createRequire(import.meta.url);
  const fromShared = createRequire(require.resolve('@quire/shared/assets/theme.js'));
  return (katexDir = path.dirname(fromShared.resolve('katex/dist/katex.min.css')));
}

/** The site's deferred scripts, concatenated in the builder's order (shared/src/node/site-assets.ts). */
function readSiteJs(): Buffer {
  const require = createRequire(import.meta.url);
  return (siteJs ??= Buffer.from(SITE_JS_FILES.map((f) => fs.readFileSync(require.resolve(`@quire/shared/assets/${f}`), 'utf8')).join(';\n')));
}

/** Mermaid's self-contained browser bundle, the file the site serves as `mermaid.<hash>.js`. */
function readMermaidJs(): Buffer {
  return (mermaidJs ??= fs.readFileSync(createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js')));
}

const LONG = 'public, max-age=86400';
const SCRIPT_HEADERS = { 'content-type': 'text/javascript; charset=utf-8', 'x-content-type-options': 'nosniff' };

/** One of the preview's own assets (see the module doc), or null for another name. */
function vendorAsset(name: string): PreviewFileAnswer | null {
  if (name === 'katex.css') {
    const body = fs.readFileSync(path.join(katexDist(), 'katex.min.css'));
    return { status: 200, headers: { 'content-type': 'text/css; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': LONG }, body };
  }
  // the site's own scripts are revalidated: they change with the app's sources
  if (name === 'site.js') return { status: 200, headers: { ...SCRIPT_HEADERS, 'cache-control': 'no-cache' }, body: readSiteJs() };
  if (name === 'frame.js') return { status: 200, headers: { ...SCRIPT_HEADERS, 'cache-control': 'no-cache' }, body: Buffer.from(PREVIEW_FRAME_SCRIPT + REVIEW_DIFF_FRAME_SCRIPT) };
  if (name === 'mermaid.js') return { status: 200, headers: { ...SCRIPT_HEADERS, 'cache-control': LONG }, body: readMermaidJs() };
  const font = /^fonts\/(KaTeX_[\w-]+\.(?:woff2|woff|ttf))$/.exec(name);
  if (!font) return null;
  const file = path.join(katexDist(), 'fonts', font[1]!);
  if (!fs.existsSync(file)) return null;
  // fonts are fetched with CORS, and the preview frames have an opaque origin (sandboxed without allow-same-origin)
  const headers = { 'content-type': mime.getType(file)!, 'x-content-type-options': 'nosniff', 'cache-control': LONG, 'access-control-allow-origin': '*' };
  return { status: 200, headers, body: fs.readFileSync(file) };
}

/**
 * Answers the preview's requests (see the module doc): made once by compose.ts over the core and
 * the local folders.
 */
export class PreviewFiles {
  /** fetches of a server project's base bytes under way, by `<project id> <commit> <path>` (one request for a file shown twice) */
  private readonly fetching = new Map<string, Promise<Buffer | string>>();

  constructor(
    private readonly core: Core,
    private readonly localFolders: LocalFolders,
  ) {}

  /**
   * The answer to `pathname` (percent-decoded, starting with {@link PREVIEW_PREFIX}). 404 for anything
   * that is not a published file of an opened workspace: an unknown project, a page, config or hidden
   * file, a path with `..`, `.` or empty segments or a backslash (no path leaves the workspace), a
   * file deleted here, or a binary file of a server project whose bytes are not stored here and
   * cannot be fetched (offline, signed out), the message saying so.
   */
  async answer(pathname: string): Promise<PreviewFileAnswer> {
    const notFound = (message: string): PreviewFileAnswer => ({ status: 404, message });
    if (!pathname.startsWith(PREVIEW_PREFIX)) return notFound('Not found');
    const rest = pathname.slice(PREVIEW_PREFIX.length);
    const slash = rest.indexOf('/');
    if (slash <= 0) return notFound('Not found');
    const head = rest.slice(0, slash);
    const file = rest.slice(slash + 1);
    if (file.includes('\\') || file.split('/').some((seg) => seg === '..' || seg === '.' || seg === '')) return notFound('Not found');
    if (head === '_assets') return vendorAsset(file) ?? notFound('Not found');
    const projectId = head;
    if (!this.core.store.workspace(projectId)) return notFound('This project is not open here.');
    if (!isPublishedFile(file)) return notFound(`${file} is not a file the site publishes.`);
    const { docsRoot } = docsRootOf(this.core, projectId);
    const repoPath = docsRoot ? `${docsRoot}/${file}` : file;
    const stored = this.core.store.file(projectId, repoPath);
    if (!stored) return notFound(`There is no file ${file} in this project.`);
    let body: Buffer | null = stored.content !== null ? Buffer.from(stored.content, 'utf8') : (this.core.store.fileBytes(projectId, repoPath)?.bytes ?? null);
    if (body === null && isLocalProject(projectId)) body = this.localFolders.readBytes(projectId, repoPath);
    if (body === null && isLocalProject(projectId)) return notFound(`${file} cannot be read from the folder.`);
    if (body === null) {
      const fetched = await this.baseBytes(projectId, repoPath, file);
      if (typeof fetched === 'string') return notFound(fetched);
      body = fetched;
    }
    return { status: 200, headers: fileHeaders(file), body };
  }

  /**
   * The bytes of a binary file of a server project's base commit, fetched from the server and kept
   * in the store; or why they cannot be had (a message naming `file`).
   */
  private baseBytes(projectId: string, repoPath: string, file: string): Promise<Buffer | string> {
    const commitSha = this.core.store.workspace(projectId)!.commitSha;
    const key = `${projectId} ${commitSha} ${repoPath}`;
    const pending = this.fetching.get(key);
    if (pending) return pending;
    const fetch = (async (): Promise<Buffer | string> => {
      let client;
      try {
        client = this.core.sessionClient().client;
      } catch {
        return `${file} is not stored on this computer; sign in to the Quire server to see it.`;
      }
      try {
        const bytes = await readFileBytes(client, { projectId, commitSha, path: repoPath });
        this.core.store.saveBaseBytes(projectId, repoPath, commitSha, bytes);
        return bytes;
      } catch (err) {
        if (isUnreachable(err)) return `${file} is not stored on this computer and the Quire server cannot be reached; it shows once you are online.`;
        return `${file} could not be fetched from the Quire server: ${(err as Error).message}`;
      }
    })().finally(() => this.fetching.delete(key));
    this.fetching.set(key, fetch);
    return fetch;
  }
}
