import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import mime from 'mime';
import type { AudienceMarks } from './audience-variants';
import { repositoryFileType, INERT_CSP } from '@quire/shared/site/repository-files';
import { CACHE_IMMUTABLE, CACHE_REVALIDATE, SECURITY_HEADERS, securityHeaders, siteCsp } from './security-headers';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** One encoded form of a file, with its response headers prepared once. */
export interface Representation {
  body: Buffer;
  /** `"<hash>"`, `"<hash>-br"` or `"<hash>-gz"` */
  etag: string;
  /** headers of a 200 (or 404) answer, flat `[name, value, ...]` */
  headers: string[];
  /** headers of a 304 answer */
  notModifiedHeaders: string[];
}

/** A deployment file held in memory: identity bytes plus precomputed gzip/brotli forms when they help. */
export interface CachedFile {
  /** content hash shared by every representation (base64url, 22 chars) */
  hash: string;
  /** whole seconds since the epoch, for `If-Modified-Since` */
  mtimeSeconds: number;
  identity: Representation;
  br?: Representation;
  gzip?: Representation;
  /** bytes held by all representations (and by `audience`'s source) */
  size: number;
  /**
   * For a built HTML file with gated navigation marked in it (audience-variants.ts): the file as
   * built and its marks, from which each visitor's variant is cut. The representations above are
   * then the variant of a visitor without tags.
   */
  audience?: AudienceSource;
}

/** What a file's per-visitor variants are cut from (see {@link CachedFile.audience}). */
export interface AudienceSource {
  /** the file's bytes as built (with the preview banner when the deployment is a preview) */
  source: Buffer;
  marks: AudienceMarks;
  modified: Date;
}

/**
 * Who may keep a response (decisions.md section 10: gated pages are sent with
 * `Cache-Control: private, no-store`):
 * - `public`: the same for every visitor (the default);
 * - `varies`: a visitor without access gets these bytes, others may get more (a page whose navigation
 *   names gated pages): still public, but `Vary: Cookie, X-Audience-Token`;
 * - `private`: shown only to visitors with access (a gated page, or a variant showing gated
 *   entries): `private, no-store` and the same `Vary`.
 */
export type FileAccess = 'public' | 'varies' | 'private';

/** `Cache-Control` of responses only a visitor with access may see. */
export const CACHE_PRIVATE = 'private, no-store';
/** The request headers a gated response depends on, besides `Accept-Encoding`. */
const VARY_ACCESS = 'Cookie, X-Audience-Token';

/** Hashed asset names: `site.3f9a1c2b.css`, `theme-3f9a1c2b.css` (8+ hex/base64url characters). */
const HASHED = /[.-][0-9a-zA-Z_-]{8,}\.(?:css|js|mjs|woff2?|svg|png|jpe?g|webp|avif|gif)$/;

/** Whether a deployment file is content-hashed and may be cached for a year. */
export function isHashedAsset(file: string): boolean {
  return file.startsWith('_quire/assets/') && HASHED.test(file);
}

/** Who wrote a deployment file: the builder (`site`) or the customer's repository (copied as it was). */
export type FileOrigin = 'site' | 'repository';

/** `Content-Type` for a file name, with `charset=utf-8` on text types; unknown types are `application/octet-stream`. */
export function contentTypeOf(file: string): string {
  return withCharset(mime.getType(file) ?? 'application/octet-stream');
}

function withCharset(type: string): string {
  return isTextType(type) ? `${type}; charset=utf-8` : type;
}

/**
 * The headers pointing agents at a site's llms files, sent with every HTML page the builder wrote
 * (decisions.md section 6). Mintlify sends `Link: </llms.txt>; rel="llms-txt"` and
 * `X-Llms-Txt: /llms.txt` on its pages; Quire sends the same and names `llms-full.txt` in the same
 * `Link` header (`rel="llms-full-txt"`, RFC 8288 allows several links in one field), so an agent
 * reading only the headers of any page finds both files.
 * @param basePath the deployment's URL prefix (`/v1` for a documentation version; '' at the root)
 */
export function llmsLinkHeaders(basePath = ''): string[] {
  return ['Link', `<${basePath}/llms.txt>; rel="llms-txt", <${basePath}/llms-full.txt>; rel="llms-full-txt"`, 'X-Llms-Txt', `${basePath}/llms.txt`];
}

/**
 * The type-dependent headers of a deployment file: `Content-Type`, the security headers and,
 * for downloads, `Content-Disposition`. The site's own files get their type by extension and
 * the site CSP (and HTML pages the llms headers, {@link llmsLinkHeaders}); repository files follow
 * `repository-files.ts` (never a script or HTML type).
 */
function typeHeaders(file: string, origin: FileOrigin, connectSrc?: readonly string[], basePath?: string): { type: string; headers: string[] } {
  if (origin === 'site') {
    const type = contentTypeOf(file);
    const links = type.startsWith('text/html') ? llmsLinkHeaders(basePath) : [];
    return { type, headers: ['Content-Type', type, ...(connectSrc?.length ? securityHeaders(siteCsp(connectSrc)) : SECURITY_HEADERS), ...links] };
  }
  const served = repositoryFileType(mime.getType(file));
  const type = withCharset(served.type);
  return {
    type,
    headers: [
      'Content-Type', type,
      ...(served.inert ? securityHeaders(INERT_CSP) : SECURITY_HEADERS),
      ...(served.download ? ['Content-Disposition', 'attachment'] : []),
    ],
  };
}

function isTextType(type: string): boolean {
  return type.startsWith('text/') || /^application\/(?:json|javascript|xml|manifest\+json|ld\+json)$/.test(type) || type === 'image/svg+xml';
}

/** Smallest body worth compressing, in bytes. */
const MIN_COMPRESS = 256;
/** Above this size brotli uses a faster quality (11 is slow on big files). */
const BROTLI_MAX_QUALITY_SIZE = 128 * 1024;

/**
 * Prepares everything needed to answer for a deployment file's bytes without reading them
 * again: ETag (content hash), Last-Modified, Content-Type, Cache-Control (immutable
 * for hashed assets, revalidate otherwise), the security headers, and for text types larger
 * than 256 bytes a brotli and a gzip form (each kept only when smaller than the original).
 * @param file the deployment-relative path (decides type and caching)
 * @param origin `repository` for files copied from the customer's repository: served so that
 *   they can never run script on the site (`repository-files.ts`); `site` for the builder's own
 *   pages and assets, served by their extension
 * @param modified `Last-Modified` (local: the file's mtime; S3: the object's LastModified)
 * @param options `access` (default `public`, see {@link FileAccess}); `fast`: lighter compression
 *   (brotli 5, gzip 6) for forms made while a visitor waits (per-visitor variants); `connectSrc`: origins
 *   the site's pages may send requests to (deployment manifest `connectSrc`, security-headers.ts `siteCsp`);
 *   `basePath`: the deployment's URL prefix (`/v1`), for the llms headers of HTML pages
 */
export async function cachedFileOf(
  body: Buffer,
  modified: Date,
  file: string,
  origin: FileOrigin,
  options: { access?: FileAccess; fast?: boolean; connectSrc?: readonly string[]; basePath?: string } = {},
): Promise<CachedFile> {
  const hash = crypto.createHash('sha256').update(body).digest('base64url').slice(0, 22);
  const { type, headers } = typeHeaders(file, origin, options.connectSrc, options.basePath);
  const compressible = isTextType(type.split(';')[0]!) && body.length >= MIN_COMPRESS;
  const access = options.access ?? 'public';
  const vary = [...(compressible ? ['Accept-Encoding'] : []), ...(access === 'public' ? [] : [VARY_ACCESS])].join(', ');
  const base = [
    ...headers,
    'Cache-Control', access === 'private' ? CACHE_PRIVATE : origin === 'site' && isHashedAsset(file) ? CACHE_IMMUTABLE : CACHE_REVALIDATE,
    'Last-Modified', modified.toUTCString(),
    ...(vary ? ['Vary', vary] : []),
  ];
  const represent = (data: Buffer, encoding?: 'br' | 'gzip'): Representation => {
    const etag = `"${hash}${encoding === 'br' ? '-br' : encoding === 'gzip' ? '-gz' : ''}"`;
    const common = [...base, 'ETag', etag];
    return {
      body: data,
      etag,
      headers: [...common, 'Content-Length', String(data.length), ...(encoding ? ['Content-Encoding', encoding] : [])],
      notModifiedHeaders: common,
    };
  };
  const out: CachedFile = { hash, mtimeSeconds: Math.floor(modified.getTime() / 1000), identity: represent(body), size: body.length };
  if (compressible) {
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: options.fast ? 5 : body.length > BROTLI_MAX_QUALITY_SIZE ? 6 : 11,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gzip(body, { level: options.fast ? 6 : 9 }),
    ]);
    if (br.length < body.length) out.br = represent(br, 'br');
    if (gz.length < body.length) out.gzip = represent(gz, 'gzip');
    out.size += (out.br?.body.length ?? 0) + (out.gzip?.body.length ?? 0);
  }
  return out;
}
