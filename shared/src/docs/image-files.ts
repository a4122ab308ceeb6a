/**
 * The rule for images a writer adds to a project from the editor (paste, drop, "Insert image"):
 * which types are taken, how large a file may be, how the file is named in the project and the
 * Markdown that shows it. One rule for the desktop's renderer (which checks before it sends the
 * bytes) and its core (which checks again before it writes them).
 *
 * - Types, by file extension (letter case ignored): PNG, JPEG (`.jpg`, `.jpeg`), GIF, WebP, SVG and AVIF,
 *   the raster and vector formats every current browser shows in an `<img>`; others are refused.
 * - Size: at most {@link MAX_IMAGE_BYTES} (5 MiB) of file bytes.
 * - Name: the file name's stem slugged (lowercase `a-z0-9` and single hyphens, camelCase split, at
 *   most {@link MAX_IMAGE_STEM_CHARS} characters, `image` when nothing is left) with its lowercased
 *   extension (`.jpeg` stays `.jpeg`); a name already taken gets `-1`, `-2`, ... before the extension.
 * - Place: `images/` of the docs root, so the site serves it at `/images/<name>` (server/src/builder/site-writer.ts
 *   copies the docs root's files to the site root).
 */
import { slugify } from './openapi/page-path';

/** Largest image a writer may add, in bytes (5 MiB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Longest slugged name stem, in characters (the extension and a `-N` suffix come on top). */
export const MAX_IMAGE_STEM_CHARS = 80;

/** The folder of the docs root that added images go to. */
export const IMAGE_FOLDER = 'images';

/** Each accepted extension (lowercase, no dot) and its media type. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  avif: 'image/avif',
};

/** The `accept` list of a file chooser offering the accepted types (media types and extensions). */
export const IMAGE_ACCEPT = [...new Set(Object.values(IMAGE_TYPES)), ...Object.keys(IMAGE_TYPES).map((e) => `.${e}`)].join(',');

/** How many bytes read as `n` mebibytes or kibibytes for a person ("5 MiB", "120 KiB", "1.5 MiB"). */
export function formatBytes(n: number): string {
  if (n < 1024 * 1024) return `${Math.max(1, Math.round(n / 1024))} KiB`;
  const mib = n / 1024 / 1024;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}

/** The extension of a file name, lowercased, without the dot ('' when it has none). */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The last segment of a path or file name (`/` or `\` separated). */
function baseName(name: string): string {
  return name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
}

/**
 * Why an image file cannot be added, or null when it can: a type that is not accepted or a size
 * past {@link MAX_IMAGE_BYTES}. The message names the file and the rule, meant for the writer.
 * @param name the file's name (a path is fine: its last segment counts)
 * @param size the file's size in bytes
 */
export function imageFileProblem(name: string, size: number): string | null {
  const file = baseName(name) || 'The file';
  if (!IMAGE_TYPES[extensionOf(file)]) {
    return `${file} is not an image Quire can add: use a PNG, JPEG, GIF, WebP, SVG or AVIF file.`;
  }
  if (size > MAX_IMAGE_BYTES) return `${file} is ${formatBytes(size)}; an image may be at most ${formatBytes(MAX_IMAGE_BYTES)}.`;
  return null;
}

/**
 * The name an image file gets in the project (see the module doc): `My Diagram.PNG` → `my-diagram.png`.
 * Assumes an accepted extension ({@link imageFileProblem}).
 */
export function imageFileName(name: string): string {
  const file = baseName(name);
  const ext = extensionOf(file);
  const stem = ext ? file.slice(0, file.length - ext.length - 1) : file;
  const slug = slugify(stem).slice(0, MAX_IMAGE_STEM_CHARS).replace(/-+$/, '');
  return `${slug || 'image'}${ext ? `.${ext}` : ''}`;
}

/**
 * The first of `name`, `<stem>-1.<ext>`, `<stem>-2.<ext>`, ... for which `taken` is false.
 * @example uniqueFileName('diagram.png', (n) => n === 'diagram.png') === 'diagram-1.png'
 */
export function uniqueFileName(name: string, taken: (candidate: string) => boolean): string {
  if (!taken(name)) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let i = 1; ; i++) {
    const candidate = `${stem}-${i}${ext}`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * The Markdown showing an added image: `![<alt>](<url>)`, the alt text made from the file name
 * (`my-diagram.png` → `my diagram`; `[`, `]` and `\` dropped so the alt cannot end the link early).
 * @param url the image's URL on the site (`/images/my-diagram.png`)
 */
export function imageMarkdown(name: string, url: string): string {
  const file = baseName(name);
  const ext = extensionOf(file);
  const stem = ext ? file.slice(0, file.length - ext.length - 1) : file;
  const alt = stem
    .replace(/[[\]\\]/g, '')
    .replace(/[-_]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `![${alt}](${encodeURI(url)})`;
}
