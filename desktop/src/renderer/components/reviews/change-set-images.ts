import { IMAGE_TYPES } from '@quire/shared/docs/image-files';
import type { ReviewFileTexts } from './types';

/** Base64 as the server sends a binary file's bytes (shared/src/sync/mutations.ts; RFC 4648 section 4, padded). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The images a review's change set adds or changes, as `data:` URLs by repository path: a binary
 * file's `after` is base64 (the server marks it so in `sync.pull`), an SVG sent as text is its
 * markup. Files of other types, and deleted ones, are left out. The rendered diff shows these in
 * place of the reader's own copies, which do not hold them yet.
 */
export function changeSetImages(files: readonly Pick<ReviewFileTexts, 'path' | 'after'>[]): Map<string, string> {
  const images = new Map<string, string>();
  for (const f of files) {
    const type = IMAGE_TYPES[f.path.slice(f.path.lastIndexOf('.') + 1).toLowerCase()];
    if (!type || f.after === null) continue;
    const text = f.after.trim();
    if (BASE64.test(text)) images.set(f.path, `data:${type};base64,${text}`);
    else if (type === 'image/svg+xml') images.set(f.path, `data:${type};charset=utf-8,${encodeURIComponent(f.after)}`);
  }
  return images;
}

/**
 * The `data:` URL of `images` that a preview image URL stands for, or null. Preview URLs are
 * `/_quire-preview/<project id>/<path under the docs root>` (desktop/src/core/preview-urls.ts), and
 * a repository path ends with the path under the docs root: the one whose tail it is wins.
 */
export function changeSetImageFor(images: ReadonlyMap<string, string>, src: string | null): string | null {
  if (!src || images.size === 0 || src.startsWith('data:')) return null;
  let rel: string;
  try {
    rel = new URL(src, 'http://preview.invalid/').pathname.split('/').filter(Boolean).slice(2).map(decodeURIComponent).join('/');
  } catch {
    return null;
  }
  if (!rel) return null;
  for (const [path, url] of images) if (path === rel || path.endsWith(`/${rel}`)) return url;
  return null;
}

/** True when `a` and `b` hold the same paths with the same URLs (a refreshed review that changed none of its images). */
export function sameImages(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [path, url] of a) if (b.get(path) !== url) return false;
  return true;
}
