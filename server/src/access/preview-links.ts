/**
 * Preview links as the site sees them (decisions.md section 9: "Preview links may carry a password
 * and an expiry"): the link token in `<preview site>/_quire/link/<token>` is 32 random bytes in
 * base64url; only its SHA-256 is stored (`PreviewLink.tokenHash`), so a database leak opens no
 * preview. The site gate (server/src/sites/) looks a token up with {@link findPreviewLink} and checks
 * a typed password with {@link checkPreviewLinkPassword} (throttled); services/preview-links.ts manages links.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { PreviewLinkState } from '@quire/shared/api/access';
import type { AppContext } from '../context';
import { verifyPassword } from '../services/passwords';
import type { FailureLimits, FailureThrottle } from '../services/failure-throttle';

/** Length of a link token: 32 bytes in base64url without padding. */
const TOKEN_LENGTH = 43;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new link token (32 random bytes, base64url) and the hash stored for it. */
export function newPreviewLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: previewLinkTokenHash(token) };
}

/** SHA-256 (hex) of a link token, as stored in `PreviewLink.tokenHash`. */
export function previewLinkTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A link's state at `now`: `revoked` wins over `expired`. */
export function previewLinkState(link: { revokedAt: Date | null; expiresAt: Date | null }, now = Date.now()): PreviewLinkState {
  if (link.revokedAt) return 'revoked';
  if (link.expiresAt && link.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}

/** What the site needs to know about a preview link. */
export interface PreviewLinkLookup {
  id: string;
  projectId: string;
  previewName: string;
  hasPassword: boolean;
  state: PreviewLinkState;
}

/**
 * The link a token opens, looked up by the token's SHA-256 (one indexed read; comparing hashes of
 * secrets leaks nothing useful through timing).
 * @param token the token from `/_quire/link/<token>` (or the site's cookie).
 * @returns its id, project, preview channel, whether it has a password and its state now; null for
 *   a token of no link (also any text that cannot be a token, without a database read).
 */
export async function findPreviewLink(ctx: AppContext, token: string): Promise<PreviewLinkLookup | null> {
  if (token.length !== TOKEN_LENGTH || !TOKEN_SHAPE.test(token)) return null;
  const row = await ctx.db.prisma.previewLink.findUnique({
    where: { tokenHash: previewLinkTokenHash(token) },
    select: { id: true, projectId: true, previewName: true, passwordHash: true, expiresAt: true, revokedAt: true },
  });
  if (!row) return null;
  return { id: row.id, projectId: row.projectId, previewName: row.previewName, hasPassword: row.passwordHash !== null, state: previewLinkState(row) };
}

/** Wrong preview-link passwords allowed in 15 minutes: 10 per link (from any address) and 30 per client IP (over all links). */
export const PREVIEW_PASSWORD_LIMITS: Readonly<FailureLimits<'link' | 'ip'>> = { per: { link: 10, ip: 30 }, windowMs: 15 * 60 * 1000 };

/** The throttle of preview-link passwords (`ctx.previewPasswordThrottle`): subjects are the link's id and the client IP. */
export type PreviewPasswordThrottle = FailureThrottle<'link' | 'ip'>;

/** What a typed password did: opened the link, was wrong, or was not checked because of too many wrong ones (`retryAfter` seconds). */
export type PreviewPasswordCheck = { result: 'right' } | { result: 'wrong' } | { result: 'throttled'; retryAfter: number };

/**
 * Checks a password typed for a link from client address `ip`, throttled against guessing (CWE-307;
 * services/failure-throttle.ts, {@link PREVIEW_PASSWORD_LIMITS}): while the link or the address has
 * used up its wrong passwords, answers `throttled` without hashing anything (the check costs an
 * scrypt run, so guesses would also burn CPU). Otherwise compares in constant time (scrypt,
 * `services/passwords.ts` `verifyPassword`; an unknown link or one without a password costs the
 * same work). Every checked password counts as a failure of the link and the address when the
 * check starts (atomically with the limit check, so concurrent guesses are counted too); a right
 * one clears the link's failures and takes its count back from the address.
 * @returns `right` only when the link exists, is active (neither expired nor revoked) and has a
 *   password that `password` matches.
 */
export async function checkPreviewLinkPassword(ctx: AppContext, linkId: string, ip: string, password: string): Promise<PreviewPasswordCheck> {
  const subjects = { link: linkId, ip };
  const retryAfter = await ctx.previewPasswordThrottle.attempt(subjects);
  if (retryAfter > 0) return { result: 'throttled', retryAfter };
  const row = await ctx.db.prisma.previewLink.findUnique({ where: { id: linkId }, select: { passwordHash: true, expiresAt: true, revokedAt: true } });
  const matches = await verifyPassword(password, row?.passwordHash ?? '');
  if (!matches || row === null || previewLinkState(row) !== 'active') return { result: 'wrong' };
  await ctx.previewPasswordThrottle.succeeded(subjects, 'link');
  return { result: 'right' };
}
