/**
 * The change set rule (decisions.md section 9: a change set is a list of file changes, each a
 * path with new content or a deletion, on a base commit of the project's branch), shared by the
 * server (reviews, merges, preview builds) and the desktop app (which checks a change set before
 * it sends it), so both refuse the same paths and sizes with the same words.
 *
 * - Paths are repository paths in POSIX form: `\` is read as `/` (Windows clients); then no
 *   leading or trailing `/`, no empty, `.` or `..` segment (a path never leaves the repository),
 *   no `.git` segment in any letter case (git's own files), no control characters (U+0000–U+001F,
 *   U+007F), at most {@link CHANGE_SET_LIMITS}.maxPathBytes bytes of UTF-8 and 255 bytes a segment.
 * - A path appears once in a change set.
 * - Content is text (`encoding` `utf-8`, the default) or bytes written as padded standard base64
 *   (`encoding: 'base64'`, as GitHub's blob API carries them; RFC 4648 section 4): images, PDFs and
 *   other downloads. Content that is not valid base64 is an `invalid` problem on `changes.<i>.content`.
 * - Sizes (decisions.md section 9; change sets are size-limited):
 *   at most `maxFiles` changes, `maxFileBytes` of content a file and `maxTotalBytes` in all, counted
 *   in bytes of the file (UTF-8 bytes of text, decoded bytes of base64); over a limit is a
 *   `too_large` problem (the server answers 413 `payload_too_large` naming the limit).
 */

import { base64ByteLength, decodeBase64 } from '../base64';

/** Limits of one change set. Bytes are bytes of the file (UTF-8 of text, decoded base64) or UTF-8 bytes of the path. */
export const CHANGE_SET_LIMITS = {
  /** Changed files in one change set. */
  maxFiles: 500,
  /** Content of one file: 2 MiB. */
  maxFileBytes: 2 * 1024 * 1024,
  /** Content of all files together: 10 MiB. */
  maxTotalBytes: 10 * 1024 * 1024,
  /** One path, in bytes. */
  maxPathBytes: 1024,
  /** One path segment (a file or folder name), in bytes: what common file systems allow. */
  maxSegmentBytes: 255,
} as const;

/**
 * Largest request body that carries a whole change set as JSON, in bytes: twice the content limit,
 * room for JSON escaping and for base64 (4 characters for 3 bytes); the review routes and the tRPC
 * endpoint take bodies this large.
 */
export const CHANGE_SET_BODY_LIMIT = 2 * CHANGE_SET_LIMITS.maxTotalBytes;

/** Which limit a change set passed: the keys of {@link CHANGE_SET_LIMITS} that a body can exceed. */
export type ChangeSetLimit = 'maxFiles' | 'maxFileBytes' | 'maxTotalBytes';

/** How the content of a change is written: text, or bytes as base64 (see the module comment). */
export const CHANGE_ENCODINGS = ['utf-8', 'base64'] as const;
export type ChangeEncoding = (typeof CHANGE_ENCODINGS)[number];

/** One change as a client sends it: new content (text unless `encoding` is `base64`), or a deletion. */
export type ChangeSetEntry = { path: string; content: string; encoding?: ChangeEncoding } | { path: string; deleted: true };

/**
 * One change after {@link checkChangeSet}: its normalised path; `content` null for a deletion;
 * `encoding` always set (`utf-8` for a deletion), `content` then holding base64 for `base64`.
 */
export interface FileChange {
  path: string;
  content: string | null;
  encoding: ChangeEncoding;
}

/** Why a change set is refused. `field` is the dotted path of the culprit in the body (`changes.3.path`). */
export type ChangeSetProblem =
  | { kind: 'invalid'; field: string; issue: string }
  | { kind: 'too_large'; field: string; limit: ChangeSetLimit; max: number; actual: number; message: string };

/** The result of {@link checkChangeSet}. */
export type ChangeSetCheck = { ok: true; changes: FileChange[] } | { ok: false; problem: ChangeSetProblem };

/** The result of {@link normaliseChangePath}. */
export type ChangePathCheck = { ok: true; path: string } | { ok: false; issue: string };

// eslint-disable-next-line no-control-regex -- these are the characters the rule refuses
const CONTROL = /[\u0000-\u001f\u007f]/;
const encoder = new TextEncoder();

/** Bytes of `text` in UTF-8 (what git stores and the limits count). */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

/**
 * Normalises a repository path by the rule above (`docs\\intro.mdx` → `docs/intro.mdx`).
 * @returns the normalised path, or the issue (`"has a \"..\" segment"`, ...), never throwing.
 */
export function normaliseChangePath(raw: string): ChangePathCheck {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, issue: 'is empty' };
  if (CONTROL.test(raw)) return { ok: false, issue: 'contains a control character' };
  const path = raw.replace(/\\/g, '/');
  if (utf8Bytes(path) > CHANGE_SET_LIMITS.maxPathBytes) return { ok: false, issue: `is longer than ${CHANGE_SET_LIMITS.maxPathBytes} bytes` };
  if (path.startsWith('/')) return { ok: false, issue: 'must be relative to the repository root (no leading "/")' };
  if (path.endsWith('/')) return { ok: false, issue: 'names a folder (ends with "/"); give a file' };
  for (const segment of path.split('/')) {
    if (segment === '') return { ok: false, issue: 'has an empty segment ("//")' };
    if (segment === '.' || segment === '..') return { ok: false, issue: `has a "${segment}" segment; paths may not leave the repository` };
    if (segment.toLowerCase() === '.git') return { ok: false, issue: 'points into ".git", which a change set may not touch' };
    if (utf8Bytes(segment) > CHANGE_SET_LIMITS.maxSegmentBytes) return { ok: false, issue: `has a segment longer than ${CHANGE_SET_LIMITS.maxSegmentBytes} bytes` };
  }
  return { ok: true, path };
}

/**
 * Checks a whole change set: every path ({@link normaliseChangePath}), no path twice, and the size
 * limits. `field` (default `changes`) prefixes the culprit's field in a problem.
 * @returns the normalised changes in the given order, or the first problem found (size problems
 *   are reported before path problems only for the file count, which is known up front).
 */
export function checkChangeSet(entries: readonly ChangeSetEntry[], field = 'changes'): ChangeSetCheck {
  const limits = CHANGE_SET_LIMITS;
  if (entries.length > limits.maxFiles) {
    return tooLarge(field, 'maxFiles', limits.maxFiles, entries.length, `A change set holds at most ${limits.maxFiles} files; this one has ${entries.length}.`);
  }
  const seen = new Map<string, number>();
  const changes: FileChange[] = [];
  let total = 0;
  for (const [i, entry] of entries.entries()) {
    const checked = normaliseChangePath(entry.path);
    if (!checked.ok) return { ok: false, problem: { kind: 'invalid', field: `${field}.${i}.path`, issue: checked.issue } };
    const first = seen.get(checked.path);
    if (first !== undefined) return { ok: false, problem: { kind: 'invalid', field: `${field}.${i}.path`, issue: `"${checked.path}" is already changed by ${field}.${first}` } };
    seen.set(checked.path, i);
    const content = 'content' in entry ? entry.content : null;
    const encoding: ChangeEncoding = 'content' in entry && entry.encoding === 'base64' ? 'base64' : 'utf-8';
    if (content !== null) {
      if (encoding === 'base64' && decodeBase64(content) === null) {
        return { ok: false, problem: { kind: 'invalid', field: `${field}.${i}.content`, issue: 'is not valid base64 (RFC 4648: A-Z, a-z, 0-9, + and /, padded with =, no line breaks)' } };
      }
      const bytes = contentBytes(content, encoding);
      if (bytes > limits.maxFileBytes) {
        return tooLarge(`${field}.${i}.content`, 'maxFileBytes', limits.maxFileBytes, bytes, `"${checked.path}" has ${bytes} bytes; a file in a change set has at most ${limits.maxFileBytes} bytes (2 MiB).`);
      }
      total += bytes;
      if (total > limits.maxTotalBytes) {
        return tooLarge(field, 'maxTotalBytes', limits.maxTotalBytes, total, `The files of a change set hold at most ${limits.maxTotalBytes} bytes (10 MiB) together; this one passes that at ${field}.${i}.`);
      }
    }
    changes.push({ path: checked.path, content, encoding });
  }
  return { ok: true, changes };
}

/** Bytes of a file's content as written with `encoding` (UTF-8 bytes of text; decoded bytes of valid base64). */
export function contentBytes(content: string, encoding: ChangeEncoding | undefined): number {
  return encoding === 'base64' ? base64ByteLength(content) : utf8Bytes(content);
}

/**
 * The bytes of a change's file: UTF-8 of text, the decoded bytes of base64; null for a deletion.
 * The one place a change's content becomes bytes (the server writes them to git and to preview builds).
 * @throws Error for base64 content that is not valid (a change set passed by {@link checkChangeSet} never has it).
 */
export function changeEntryBytes(entry: { content: string | null; encoding?: ChangeEncoding } | { deleted: true }): Uint8Array | null {
  if (!('content' in entry) || entry.content === null) return null;
  if (entry.encoding !== 'base64') return encoder.encode(entry.content);
  const bytes = decodeBase64(entry.content);
  if (!bytes) throw new Error('The content is not valid base64.');
  return bytes;
}

function tooLarge(field: string, limit: ChangeSetLimit, max: number, actual: number, message: string): ChangeSetCheck {
  return { ok: false, problem: { kind: 'too_large', field, limit, max, actual, message } };
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A file's bytes as text when they are text, else null: valid UTF-8 (RFC 3629) without a NUL byte
 * (git's own test for a binary file, and text a database stores; shared/src/text.ts). A change set
 * carries a file that is not text as base64, and diffs show it as binary.
 */
export function bytesAsText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return null;
  }
}

/** Whether a repository path is a page the site renders (`.md` or `.mdx`), whose URL is the path without its extension. */
export function isPagePath(path: string): boolean {
  return /\.mdx?$/i.test(path);
}
