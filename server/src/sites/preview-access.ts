import { createHmac, timingSafeEqual } from 'node:crypto';
import { COOKIE_MAX_AGE_SECONDS } from './cookies';

/**
 * The `quire_preview` cookie: proof that this browser opened a preview link of one preview host
 * (and gave its password, when it has one). Signed, not stored (decisions.md section 9: "Preview
 * links may carry a password and an expiry"):
 * `base64url(JSON {v: 1, p: projectId, n: previewName, t: link token, e: expiry Unix seconds}).base64url(HMAC-SHA256)`,
 * keyed with a key derived from the installation's secret key (git/secret-box.ts `secretKeyOf`),
 * so it cannot be made without the server, also by someone who knows the link (the password is
 * checked before it is issued). The link's token is kept inside so that every use can check the
 * link is still active (revoked or expired links stop opening the preview); the cookie is HttpOnly
 * and host-only, and the token is already in the URL its holder opened.
 */

/** What a valid preview cookie says. */
export interface PreviewProof {
  projectId: string;
  previewName: string;
  /** the preview link's token (for its current state) */
  linkToken: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Longest link token kept in a cookie. */
const MAX_LINK_TOKEN = 256;

/** The signing key of preview cookies, derived from the installation's secret key. */
export function previewCookieKey(secretKey: Buffer): Buffer {
  return createHmac('sha256', secretKey).update('quire preview access cookie v1').digest();
}

/**
 * Signs a preview proof valid for `maxAgeSeconds` from `now` (ms).
 * @returns the cookie value (base64url and `.` only)
 */
export function signPreviewProof(key: Buffer, proof: PreviewProof, now = Date.now(), maxAgeSeconds = COOKIE_MAX_AGE_SECONDS): string {
  const payload = Buffer.from(
    JSON.stringify({ v: 1, p: proof.projectId, n: proof.previewName, t: proof.linkToken, e: Math.floor(now / 1000) + maxAgeSeconds }),
    'utf8',
  ).toString('base64url');
  return `${payload}.${createHmac('sha256', key).update(payload, 'ascii').digest('base64url')}`;
}

/**
 * Verifies a preview cookie for one preview host: signature (constant time), format, expiry, and
 * that it was issued for this project's preview `previewName`.
 * @returns the link token it proves, or null when it proves nothing here
 */
export function verifyPreviewProof(key: Buffer, value: string, projectId: string, previewName: string, now = Date.now()): string | null {
  const dot = value.indexOf('.');
  if (dot <= 0 || dot !== value.lastIndexOf('.')) return null;
  const payload = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (!BASE64URL.test(payload) || !BASE64URL.test(signature)) return null;
  const expected = createHmac('sha256', key).update(payload, 'ascii').digest('base64url');
  if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature, 'ascii'), Buffer.from(expected, 'ascii'))) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { v, p, n, t, e } = parsed as Record<string, unknown>;
  if (v !== 1 || p !== projectId || n !== previewName || typeof t !== 'string' || t.length === 0 || t.length > MAX_LINK_TOKEN) return null;
  if (typeof e !== 'number' || e * 1000 <= now) return null;
  return t;
}
