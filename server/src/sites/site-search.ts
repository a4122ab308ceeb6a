/**
 * The site's own search endpoint, `GET /_quire/search?q=&version=&limit=` on a site host
 * (decisions.md section 6: the site's endpoints under `/_quire/`; section 7: the hit shape), for
 * the site's search dialog. Same parameters and hit shape as `GET /v1/projects/{projectId}/search`
 * (shared/src/api/search.ts), with path-relative URLs (`/v1/guides/setup#install`).
 *
 * What a reader gets (decisions.md section 6: gated pages never appear in search for visitors
 * without access): public pages, and gated pages whose tags the reader's audience token opens (the
 * token from `x-audience-token`, else the `quire_audience` cookie, verified as the gate does); each
 * hit also passes the site's access decision for its page (access rules, IP allowlists:
 * access/decide.ts), so a page the reader could not open is never named. Hidden pages are never
 * indexed.
 *
 * `version` absent searches the deployment this host serves (production, or a preview on a preview
 * host); a label searches that version's live deployment (search/search-target.ts). Answers are
 * JSON: 200 `{data: [hit]}`; 400 `invalid_request` (`details.field`) for a missing, blank or over-long
 * `q`, a `limit` outside 1-50, or text with NUL or a lone surrogate; 404 `not_found` for an unknown
 * version. `Cache-Control: private, no-store` when the answer may depend on the reader (a token was
 * sent, the site has gated pages, or the project has access rules or IP allowlists), else `no-cache`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '@quire/shared/errors';
import { SearchQueryParamsSchema, type SearchResult } from '@quire/shared/api/search';
import { invalidInput } from '@quire/shared/api/invalid-input';
import { findUnstorableText } from '@quire/shared/text';
import { defaultVersion } from '@quire/shared/docs/versions';
import type { AppContext } from '../context';
import { runSearch } from '../search/search-service';
import { searchTarget, type SearchTarget } from '../search/search-target';
import { siteReaderOf } from './site-reader';
import { rulesRestrict } from './page-filter';
import type { DeploymentSite } from './deployment-site';
import { sendSiteError, sendSiteJson } from './site-json';
import type { SiteAccess } from './site-access';

/** A site search as the gate hands it to the server (`SiteAccess.search`). */
export interface SiteSearchQuery {
  q: string;
  version?: string;
  limit: number;
  /** whether the reader may see a record with these (non-empty) audience tags */
  canRead: (audience: readonly string[]) => boolean;
  /** identifies `canRead` for the answer cache: the reader's sorted tags (search-service.ts `readerKey`) */
  readerKey: string;
  /** whether the reader may open a hit's page (the site's access decision) */
  allow: (path: string) => boolean | Promise<boolean>;
  /** the surface asking, for analytics: the site's dialog (default) or the site's MCP server */
  source?: 'site' | 'mcp';
  /** only pages of this language division (docs.json `navigation.languages` code); absent: every language */
  language?: string;
}

/**
 * Runs a site search with the server's state (bound into `SiteAccess.search` by `siteAccessOf`):
 * the served deployment itself when no version is asked for, else the version's deployment.
 * A project whose `settings.searchEnabled` is false has no reader-facing search (the site's dialog,
 * the site's MCP `search` tool); the API's `GET /search` keeps answering its integrators.
 * @throws ApiError not_found for an unknown version, or (`details.reason` `search_disabled`) when
 *   the project's search is turned off.
 */
export async function searchSite(ctx: AppContext, site: DeploymentSite, query: SiteSearchQuery): Promise<SearchResult[]> {
  const project = await ctx.projects.get(site.projectId);
  if (project && !project.settings.searchEnabled) throw new ApiError('not_found', 'Search is turned off for this site.', { reason: 'search_disabled' });
  const served: Pick<SearchTarget, 'files' | 'createdAt' | 'version' | 'basePath'> = {
    files: site.source,
    createdAt: new Date(site.manifest.createdAt),
    version: defaultVersion(site.manifest.versions)?.label ?? null,
    basePath: '',
  };
  const target = query.version === undefined ? served : await searchTarget(ctx, site.projectId, query.version);
  return runSearch(ctx, target, { projectId: site.projectId, q: query.q, limit: query.limit, canRead: query.canRead, readerKey: query.readerKey, siteRoot: '/', allow: (hit) => query.allow(hit.path), source: query.source ?? 'site', ...(query.language !== undefined ? { language: query.language } : {}) });
}

/** The query parameters, validated as the API validates them. @throws ApiError invalid_request. */
function parseQuery(rawUrl: string): { q: string; version?: string; language?: string; limit: number } {
  const q = rawUrl.indexOf('?');
  const params = new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1));
  const raw: Record<string, string> = {};
  for (const name of ['q', 'version', 'language', 'limit']) {
    const value = params.get(name);
    if (value === null) continue;
    const bad = findUnstorableText(value);
    if (bad) throw new ApiError('invalid_request', `${name}: ${bad.issue}`, { field: name, issue: bad.issue });
    raw[name] = value;
  }
  const parsed = SearchQueryParamsSchema.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error, { input: raw, root: 'q' });
  return parsed.data;
}

/**
 * Answers `GET /_quire/search` of a loaded deployment (see the module comment). Never rejects:
 * failures are logged and answered 500 in the error envelope.
 */
export async function answerSiteSearch(
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  log: FastifyBaseLogger,
): Promise<void> {
  const reader = await siteReaderOf(req, site, access, log);
  const personal = reader.token !== undefined || site.hasGatedPages || (await rulesRestrict(access, site.projectId));
  try {
    const query = parseQuery(req.url ?? '/');
    const data = await access.search(site, { ...query, canRead: reader.canRead, readerKey: reader.readerKey, allow: reader.allow });
    sendSiteJson(req, res, 200, { data }, personal);
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return sendSiteError(req, res, err);
    log.error({ err, url: req.url }, 'site search failed');
    sendSiteError(req, res, new ApiError('internal_error', 'Search failed; try again.'));
  }
}
