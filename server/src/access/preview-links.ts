/**
 * Preview links as the site sees them (decisions.md section 9: "Preview links may carry a password
 * and an expiry"): the link token in `<preview site>/_quire/link/<token>` is 32 random bytes in
 * base64url; only its SHA-256 is stored (`PreviewLink.tokenHash`), so a database leak opens no
 * preview. The site gate (server/src/sites/) looks a token up with {@link findPreviewLink} and checks
 * a typed password with {@link checkPreviewLinkPassword}; services/preview-links.ts manages links.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { PreviewLinkState } from '@quire/shared/api/access';
import type { AppContext } from '../context';
import { verifyPassword } from '../services/passwords';

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

/**
 * Checks a password typed for a link, in constant time (scrypt, `services/passwords.ts`
 * `verifyPassword`; an unknown link or one without a password costs the same work).
 * @returns true only when the link exists, is active (neither expired nor revoked) and has a
 *   password that `password` matches.
 */
export async function checkPreviewLinkPassword(ctx: AppContext, linkId: string, password: string): Promise<boolean> {
  const row = await ctx.db.prisma.previewLink.findUnique({ where: { id: linkId }, select: { passwordHash: true, expiresAt: true, revokedAt: true } });
  const matches = await verifyPassword(password, row?.passwordHash ?? '');
  return matches && row !== null && previewLinkState(row) === 'active';
}
