/**
 * Who reads through the API (`GET /search`, `GET /pages`), respecting the gate for the caller
 * (decisions.md section 6). An API key belongs to the project's own integrators, so it reads every
 * page, gated ones included. A call that also sends an audience token in `x-audience-token` (the header
 * non-browser readers use on the site, decisions.md section 6) reads as that token's reader: public
 * pages, and gated pages whose tags the token's profile opens (a token that does not verify opens
 * none). Hidden pages are never in a search index; the pages API lists them with `hidden: true`.
 */
import { opensAudience } from '@quire/shared/site/audience';
import type { AppContext } from '../context';
import { verifyAudienceToken } from '../services/audience-tokens';

/** Request header narrowing an API call to an audience token's reader. */
export const API_TOKEN_HEADER = 'x-audience-token';

/** Whether the caller may read a page with these audience tags ([] or absent: public). */
export type CanRead = (audience: readonly string[]) => boolean;

const EVERYTHING: CanRead = () => true;

/**
 * The caller's reading rule: everything for a plain API call, else the token's tags.
 * @param token the `x-audience-token` header, if sent
 */
export async function apiReader(ctx: AppContext, projectId: string, token: string | string[] | undefined): Promise<CanRead> {
  const given = Array.isArray(token) ? token[0] : token;
  if (given === undefined || given.trim() === '') return EVERYTHING;
  let tags: string[] = [];
  try {
    const verified = await verifyAudienceToken(ctx, projectId, given.trim());
    if (verified.ok) tags = verified.grant.tags;
  } catch (err) {
    ctx.log.error({ err, projectId }, 'an audience token could not be verified; it opens nothing');
  }
  const open = new Set(tags);
  return (audience) => opensAudience(open, audience);
}
