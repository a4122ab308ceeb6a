/**
 * The reader of a site request, as every site surface that answers with documentation content
 * (search, the assistant, the MCP server, `llms-full.txt`) sees them: the audience tags their token
 * opens and the site's access decision for any page path. The token comes from `x-audience-token`,
 * else the `quire_audience` cookie, and is verified exactly as the page gate verifies it; each page
 * a surface names must also pass {@link SiteReader.allow} (access rules, IP allowlists:
 * access/decide.ts, the one decision function every surface calls; decisions.md sections 6 and 10).
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { opensAudience } from '@quire/shared/site/audience';
import { AUDIENCE_COOKIE, readCookie } from './cookies';
import type { DeploymentSite } from './deployment-site';
import type { SiteAccess } from './site-access';
import type { SiteAccessDecision, SiteAccessInput } from '../access/decide';

/** What a site request's reader may read. */
export interface SiteReader {
  /** the audience token sent (header, else cookie); undefined: none */
  token: string | undefined;
  /** the tags the token opens (empty without a valid token) */
  tags: string[];
  /** whether the reader may read a page or record with these audience tags (empty: public) */
  canRead: (audience: readonly string[]) => boolean;
  /** the reader's sorted tags joined by newlines: readers with the same key get the same answers (answer caches) */
  readerKey: string;
  /** the visitor's address (trusted proxies honoured) */
  ip: string;
  /** whether the reader may open the page at `path` by the site's access rules and allowlists (page gate excluded: use `canRead`) */
  allow: (path: string) => boolean | Promise<boolean>;
}

/** The request's audience token: `x-audience-token`, else the cookie. */
export function siteTokenOf(req: IncomingMessage): string | undefined {
  const header = req.headers['x-audience-token'];
  if (typeof header === 'string' && header.trim() !== '') return header.trim();
  return readCookie(req, AUDIENCE_COOKIE) ?? undefined;
}

/**
 * The reader of `req` on `site` (see the module comment). A token that cannot be verified (a
 * database failure) is logged and opens nothing; a refused token opens nothing. Never rejects.
 */
export async function siteReaderOf(req: IncomingMessage, site: DeploymentSite, access: SiteAccess, log: FastifyBaseLogger): Promise<SiteReader> {
  const token = siteTokenOf(req);
  let tags: string[] = [];
  if (token !== undefined) {
    const verified = await access.verifyToken(site.projectId, token).catch((err: unknown) => {
      log.error({ err, projectId: site.projectId }, 'an audience token could not be verified; it opens nothing');
      return null;
    });
    if (verified?.ok) tags = verified.grant.tags;
  }
  const open = new Set(tags);
  const ip = access.clientIp(req);
  return { token, tags, canRead: (audience) => opensAudience(open, audience), readerKey: [...open].sort().join('\n'), ip, allow: pageAllowance(access.decide, site.projectId, ip, token) };
}

/**
 * Whether a reader (address `ip`, audience token `token` if any) may open a page by the project's
 * access rules and IP allowlists, through the one access decision (`decide`: `SiteAccess.decide`, or
 * `access/decide.ts` `decideSiteAccess` bound to the app); the page gate itself is the caller's
 * (`canRead`), so the page's own audience is passed as none.
 */
export function pageAllowance(
  decide: (input: SiteAccessInput & { pageAudience: string[] }) => SiteAccessDecision | Promise<SiteAccessDecision>,
  projectId: string,
  ip: string,
  token: string | undefined,
): (path: string) => boolean | Promise<boolean> {
  return (path) => {
    const decision = decide({ projectId, path, ip, pageAudience: [], ...(token !== undefined ? { token } : {}) });
    return decision instanceof Promise ? decision.then((d) => d.allowed) : decision.allowed;
  };
}
