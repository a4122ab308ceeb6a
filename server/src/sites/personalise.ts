import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { escapeHtml } from '@quire/shared/docs/markdown/html';
import { USER_ATTR, USER_FIELD, type ReaderClaims } from '@quire/shared/site/personalisation';
import { bodySpan } from './audience-variants';
import { cachedFileOf, type CachedFile } from './cached-file';
import type { DeploymentSite, FileAnswer } from './deployment-site';
import { sendAnswer } from './respond';

/**
 * Personalised pages at request time (shared/src/site/personalisation.ts has the rules): the builder
 * wrote `<span data-quire-user="<field>">fallback</span>` for each `{user.<field>}` of a page; a
 * reader whose audience token carries that claim gets the span's text replaced by the claim,
 * escaped; everyone else gets the fallback the builder wrote. Nothing is evaluated, and only the
 * page body (`q-prose` up to the page footer, audience-variants.ts `bodySpan`) is searched.
 *
 * Caching (decisions.md section 10): a personalised form is `Cache-Control: private, no-store` with
 * `Vary: Cookie, X-Audience-Token` and an ETag of its own bytes, kept in memory per (page form,
 * claim set) ({@link PersonalPages}), so two readers never share one; the fallback form of a page
 * with placeholders is the file as built, sent with `Vary: Cookie, X-Audience-Token` added, so a
 * shared cache never answers a reader holding a token with it.
 *
 * The API playground: a page holding a playground (`data-q-playground`) gets the reader's
 * `apiPlaygroundInputs` claim as `<meta name="quire-playground-inputs" content="<JSON>">` right
 * after `<head>`, which `playground.js` reads to pre-fill its fields.
 */

/** One placeholder of a built HTML file: the bytes `[start, end)` of its text and its field. */
export interface UserMark {
  start: number;
  end: number;
  field: string;
}

/** The placeholders of a built HTML file, and where the playground inputs go (-1: the page has no playground). */
export interface UserMarks {
  marks: UserMark[];
  /** byte offset just after `<head>`; -1 when the page has no playground or no `<head>` */
  headEnd: number;
}

const OPEN = `<span ${USER_ATTR}="`;
const CLOSE = '</span>';
const PLAYGROUND = ' data-q-playground="';
const HEAD = '<head>';
/** The request headers a personalised page depends on (as cached-file.ts `VARY_ACCESS`). */
const VARY_READER = ['Vary', 'Cookie, X-Audience-Token'];

/**
 * Finds the placeholders of a built HTML file (see the module comment).
 * @param html the file's bytes (searched through their latin1 view, so offsets are byte offsets)
 * @returns null when the page has none and no playground (most pages: served as they are)
 */
export function findUserMarks(html: Buffer): UserMarks | null {
  const text = html.toString('latin1');
  const [bodyStart, bodyEnd] = bodySpan(text);
  if (bodyStart === -1) return null;
  const marks: UserMark[] = [];
  let from = bodyStart;
  for (;;) {
    const at = text.indexOf(OPEN, from);
    if (at === -1 || at >= bodyEnd) break;
    const fieldEnd = text.indexOf('"', at + OPEN.length);
    const tagEnd = fieldEnd === -1 ? -1 : text.indexOf('>', fieldEnd);
    const close = tagEnd === -1 ? -1 : text.indexOf(CLOSE, tagEnd);
    if (close === -1 || close > bodyEnd) break;
    const field = text.slice(at + OPEN.length, fieldEnd);
    // the builder writes the field bare and the fallback escaped: anything else is not a placeholder
    if (tagEnd === fieldEnd + 1 && USER_FIELD.test(field) && !text.slice(tagEnd + 1, close).includes('<')) marks.push({ start: tagEnd + 1, end: close, field });
    from = close + CLOSE.length;
  }
  const playground = text.indexOf(PLAYGROUND, bodyStart);
  const head = playground !== -1 && playground < bodyEnd ? text.indexOf(HEAD) : -1;
  const headEnd = head !== -1 && head < bodyStart ? head + HEAD.length : -1;
  return marks.length > 0 || headEnd !== -1 ? { marks, headEnd } : null;
}

/**
 * The file with the reader's claims put in (see the module comment): each placeholder whose field
 * the claims hold gets the claim as escaped text, the others keep their fallback; the playground
 * inputs go after `<head>` when the page has a playground and the claims hold some.
 */
export function personaliseHtml(html: Buffer, found: UserMarks, claims: ReaderClaims): Buffer {
  const edits: { start: number; end: number; text: string }[] = [];
  const inputs = claims.apiPlaygroundInputs;
  if (found.headEnd !== -1 && inputs && Object.keys(inputs).length > 0) {
    edits.push({ start: found.headEnd, end: found.headEnd, text: `<meta name="quire-playground-inputs" content="${escapeHtml(JSON.stringify(inputs))}">` });
  }
  for (const mark of found.marks) {
    const value = Object.hasOwn(claims.fields, mark.field) ? claims.fields[mark.field] : undefined;
    if (value !== undefined) edits.push({ start: mark.start, end: mark.end, text: escapeHtml(value) });
  }
  if (edits.length === 0) return html;
  const parts: Buffer[] = [];
  let copied = 0;
  for (const edit of edits) {
    parts.push(html.subarray(copied, edit.start), Buffer.from(edit.text, 'utf8'));
    copied = edit.end;
  }
  parts.push(html.subarray(copied));
  return Buffer.concat(parts);
}

/** A canonical key of a claim set (sorted keys), what the personalised forms are cached by. */
export function claimsKey(claims: ReaderClaims): string {
  const sorted = (o: Record<string, unknown>): unknown =>
    Object.fromEntries(Object.keys(o).sort().map((k) => [k, typeof o[k] === 'object' && o[k] !== null ? sorted(o[k] as Record<string, unknown>) : o[k]]));
  return JSON.stringify(sorted(claims as unknown as Record<string, unknown>));
}

/** Bytes of personalised forms kept in memory per app. */
const MAX_PERSONAL_BYTES = 64 * 1024 * 1024;
/** Personalised forms kept in memory per app. */
const MAX_PERSONAL_FORMS = 5_000;

/**
 * The personalised pages of one app (made by `siteAccessOf`, once per app): each built file's
 * placeholders, found once per loaded form, and the personalised forms, cached per (deployment,
 * form, claim set) with concurrent first requests sharing one (never in the shared file cache).
 */
export class PersonalPages {
  private readonly found = new WeakMap<CachedFile, UserMarks | null>();
  private readonly forms = new LRUCache<string, CachedFile>({
    max: MAX_PERSONAL_FORMS,
    maxSize: MAX_PERSONAL_BYTES,
    sizeCalculation: (f) => Math.max(1, f.size),
  });
  private readonly making = new Map<string, Promise<CachedFile>>();

  /** The placeholders of a loaded file (found on first use; its identity bytes). */
  marksOf(file: CachedFile): UserMarks | null {
    let known = this.found.get(file);
    if (known === undefined) this.found.set(file, (known = findUserMarks(file.identity.body)));
    return known;
  }

  /** Whether an answer is a built page with placeholders or a playground (then the reader's token matters). */
  isPersonal(answer: FileAnswer): boolean {
    return answer.namesPages === true && answer.status === 200 && this.marksOf(answer.file) !== null;
  }

  /**
   * The form of `form` (the reader's variant of a page) for a reader with `claims`: cached per
   * (form, claim set), `private, no-store`.
   */
  formFor(site: DeploymentSite, answer: FileAnswer, form: CachedFile, found: UserMarks, claims: ReaderClaims): CachedFile | Promise<CachedFile> {
    // per deployment (its CSP and llms headers go with the form), per form bytes, per claim set
    const key = `${site.dir}\0${form.hash}\0${claimsKey(claims)}`;
    const hit = this.forms.get(key);
    if (hit) return hit;
    const pending = this.making.get(key);
    if (pending) return pending;
    const body = personaliseHtml(form.identity.body, found, claims);
    const made = cachedFileOf(body, new Date(form.mtimeSeconds * 1000), answer.path, 'site', {
      access: 'private',
      fast: true,
      connectSrc: site.manifest.connectSrc,
      basePath: site.basePath,
    }).then(
      (file) => {
        this.making.delete(key);
        this.forms.set(key, file);
        return file;
      },
      (err: unknown) => {
        this.making.delete(key);
        throw err;
      },
    );
    this.making.set(key, made);
    return made;
  }
}

/**
 * Sends a page form as this reader gets it (see the module comment): personalised with the claims
 * of their token when the page has placeholders or a playground and the token carries claims; else
 * the form itself (with `Vary: Cookie, X-Audience-Token` when the page has placeholders).
 * @param claims the claims of the reader's valid token (`AudienceGrant.claims`); undefined: none
 * @param extra headers to add (a `Set-Cookie` clearing a stale token)
 * @param fail called when the personalised form cannot be made
 */
export function sendPersonal(
  req: IncomingMessage,
  res: ServerResponse,
  pages: PersonalPages,
  site: DeploymentSite,
  answer: FileAnswer,
  form: CachedFile,
  claims: ReaderClaims | undefined,
  extra: string[] | undefined,
  fail: (err: unknown) => void,
): void {
  const found = answer.status === 200 && answer.namesPages === true ? pages.marksOf(form) : null;
  if (!found) return sendAnswer(req, res, answer, form, extra);
  const withVary = extra ? [...extra, ...VARY_READER] : VARY_READER;
  if (!claims) return sendAnswer(req, res, answer, form, withVary);
  const personal = pages.formFor(site, answer, form, found, claims);
  if (!(personal instanceof Promise)) return sendAnswer(req, res, answer, personal, extra);
  personal.then((f) => sendAnswer(req, res, answer, f, extra), fail);
}
