import { createHmac, timingSafeEqual } from 'node:crypto';
import { MEMBER_PREVIEW_COOKIE_SECONDS, PREVIEW_PASS_SECONDS, SITE_COOKIE_MAX_AGE_SECONDS } from '@quire/shared/api/access';

/**
 * The signed values that open a closed preview (decisions.md sections 9 and 11: "Preview links may
 * carry a password and an expiry"; "Previews that have a preview link open only through a link"),
 * all `base64url(JSON payload).base64url(HMAC-SHA256)`, keyed with keys derived from the
 * installation's secret key (git/secret-box.ts `secretKeyOf`), so none can be made without the server:
 *
 * - the `quire_preview` **cookie** of one preview host, `{v: 1, p: projectId, n: previewName, e:
 *   expiry Unix seconds}` plus either `t`: the token of the preview link that was opened (after its
 *   password, when it has one; kept so every use can check the link is still active: revoked or
 *   expired links stop opening the preview; the token is already in the URL its holder opened, and
 *   the cookie is HttpOnly and host-only), or `m: 1` for a team member who came with a member pass
 *   (valid {@link MEMBER_PREVIEW_COOKIE_SECONDS});
 * - the **member pass** in `<preview site>/_quire/pass/<pass>` (services/preview-passes.ts), `{v: 1,
 *   p, n, to: path to open, e}`, which the API gives a project member (`projects:read`) for a few
 *   minutes ({@link PREVIEW_PASS_SECONDS}); opening it sets a member cookie. Passes are signed with
 *   another key than cookies, so neither can stand for the other.
 */

/** What a valid preview cookie grants: the preview as opened through a link (still to be checked active), or as a member. */
/** Team members' passes to a preview: `/_quire/pass/<pass>` on a preview host. */
export const PASS_PREFIX = '/_quire/pass/';

export type PreviewGrant = { kind: 'link'; linkToken: string } | { kind: 'member' };

/** What a preview cookie proves. */
export interface PreviewProof {
  projectId: string;
  previewName: string;
  /** the preview link's token (for its current state); absent for a member's cookie */
  linkToken?: string;
}

export { MEMBER_PREVIEW_COOKIE_SECONDS, PREVIEW_PASS_SECONDS };

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Longest link token kept in a cookie. */
const MAX_LINK_TOKEN = 256;
/** Longest path a member pass leads to. */
const MAX_PASS_PATH = 2048;

/** The signing key of preview cookies, derived from the installation's secret key. */
export function previewCookieKey(secretKey: Buffer): Buffer {
  return createHmac('sha256', secretKey).update('quire preview access cookie v1').digest();
}

/** The signing key of member passes, derived from the installation's secret key (not the cookies' key). */
export function previewPassKey(secretKey: Buffer): Buffer {
  return createHmac('sha256', secretKey).update('quire preview member pass v1').digest();
}

/** `base64url(JSON).base64url(HMAC-SHA256)` of `payload`. */
function sign(key: Buffer, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${createHmac('sha256', key).update(body, 'ascii').digest('base64url')}`;
}

/** The payload of a value made by {@link sign} with `key` (signature checked in constant time), null otherwise. */
function open(key: Buffer, value: string): Record<string, unknown> | null {
  const dot = value.indexOf('.');
  if (dot <= 0 || dot !== value.lastIndexOf('.')) return null;
  const body = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (!BASE64URL.test(body) || !BASE64URL.test(signature)) return null;
  const expected = createHmac('sha256', key).update(body, 'ascii').digest('base64url');
  if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature, 'ascii'), Buffer.from(expected, 'ascii'))) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Whether a payload is version 1, for this project's preview `previewName`, and not expired at `now` (ms). */
function validFor(payload: Record<string, unknown>, projectId: string, previewName: string, now: number): boolean {
  const { v, p, n, e } = payload;
  return v === 1 && p === projectId && n === previewName && typeof e === 'number' && e * 1000 > now;
}

/**
 * Signs a preview cookie valid for `maxAgeSeconds` from `now` (ms): a link's when `proof.linkToken`
 * is given, else a member's.
 * @returns the cookie value (base64url and `.` only)
 */
export function signPreviewProof(key: Buffer, proof: PreviewProof, now = Date.now(), maxAgeSeconds = SITE_COOKIE_MAX_AGE_SECONDS): string {
  const grant = proof.linkToken !== undefined ? { t: proof.linkToken } : { m: 1 };
  return sign(key, { v: 1, p: proof.projectId, n: proof.previewName, ...grant, e: Math.floor(now / 1000) + maxAgeSeconds });
}

/**
 * Verifies a preview cookie for one preview host: signature (constant time), format, expiry, and
 * that it was issued for this project's preview `previewName`.
 * @returns what it grants, or null when it proves nothing here
 */
export function verifyPreviewProof(key: Buffer, value: string, projectId: string, previewName: string, now = Date.now()): PreviewGrant | null {
  const payload = open(key, value);
  if (!payload || !validFor(payload, projectId, previewName, now)) return null;
  const { t, m } = payload;
  if (m === 1 && t === undefined) return { kind: 'member' };
  if (typeof t !== 'string' || t.length === 0 || t.length > MAX_LINK_TOKEN) return null;
  return { kind: 'link', linkToken: t };
}

/**
 * The site path a member pass may lead to, from any URL path: one leading `/` (so `//host` can never
 * become another site), at most 2,048 characters; null for a longer one.
 */
export function passPathOf(path: string): string | null {
  const clean = `/${path.replace(/^[/\\]+/, '')}`;
  return clean.length <= MAX_PASS_PATH && !clean.includes('\\') ? clean : null;
}

/**
 * Signs a member pass to the project's preview `previewName` leading to `path` (a value of
 * {@link passPathOf}), valid {@link PREVIEW_PASS_SECONDS} from `now` (ms).
 * @returns the pass (base64url and `.` only) and its expiry (epoch ms)
 */
export function signPreviewPass(
  key: Buffer,
  pass: { projectId: string; previewName: string; path: string },
  now = Date.now(),
): { pass: string; expiresAt: number } {
  const e = Math.floor(now / 1000) + PREVIEW_PASS_SECONDS;
  return { pass: sign(key, { v: 1, p: pass.projectId, n: pass.previewName, to: pass.path, e }), expiresAt: e * 1000 };
}

/**
 * Verifies a member pass for one preview host (signature, format, expiry, project and preview).
 * @returns the path it leads to, or null when it opens nothing here
 */
export function verifyPreviewPass(key: Buffer, value: string, projectId: string, previewName: string, now = Date.now()): string | null {
  const payload = open(key, value);
  if (!payload || !validFor(payload, projectId, previewName, now) || typeof payload.to !== 'string') return null;
  return passPathOf(payload.to) === payload.to ? payload.to : null;
}
