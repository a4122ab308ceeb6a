/**
 * Delivery signatures (interface-spec.md "Events": header `X-Hub-Signature-256`, HMAC-SHA256 over
 * the delivery with the webhook secret, compared in constant time). Verification is
 * `@octokit/webhooks-methods` `verify` (HMAC-SHA256 of the body with `timingSafeEqual`), run
 * before anything reads the payload.
 */
import { verify } from '@octokit/webhooks-methods';
import { ApiError } from '@quire/shared/errors';

/** What GitHub sends: `sha256=` and 64 lower-case hex digits (upper case is accepted and lower-cased). */
const SIGNATURE = /^sha256=[0-9a-f]{64}$/;

/** Why a signature header cannot verify anything, or null when it is well formed. */
export function signatureHeaderIssue(header: string | string[] | undefined): string | null {
  if (header === undefined || header === '') return 'the X-Hub-Signature-256 header is missing';
  if (Array.isArray(header)) return 'more than one X-Hub-Signature-256 header was sent';
  if (!SIGNATURE.test(header.toLowerCase())) return 'the X-Hub-Signature-256 header must be "sha256=" followed by 64 hex digits';
  return null;
}

/**
 * The first of `secrets` whose HMAC-SHA256 of `text` is the signature `header`, or null. Each
 * distinct secret costs one HMAC over the whole body; the event loop is given a turn between
 * secrets, so many secrets and a large body do not stall other requests.
 * @param text the body as received ({@link bodyText}: its UTF-8 reading)
 * @param header a header {@link signatureHeaderIssue} found well formed
 */
export async function matchingSecret(secrets: readonly string[], text: string, header: string): Promise<string | null> {
  const signature = header.toLowerCase();
  for (const [i, secret] of [...new Set(secrets)].entries()) {
    if (!secret) continue;
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    if (await verify(secret, text, signature)) return secret;
  }
  return null;
}

/**
 * The spec's answer to a delivery whose signature did not verify: 401 `unauthorized`.
 * @param why what was wrong, completing "Invalid webhook signature: ..."
 */
export function invalidSignature(why: string): ApiError {
  return new ApiError('unauthorized', `Invalid webhook signature: ${why}.`);
}
