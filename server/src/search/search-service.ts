/**
 * One search of a project's documentation, shared by `GET /v1/projects/{projectId}/search` and the
 * site's `GET /_quire/search` (decisions.md sections 6 and 7): find the deployment's index (the
 * newest reindex generation covering it, else the build's: search/generations.ts), query it with
 * the reader's audience filter, shape the hits as decisions.md section 7 says, and count a search
 * without hits as a content gap (source `search`, services/content-gaps.ts).
 */
import type { SearchResult } from '@quire/shared/api/search';
import type { SearchHit, SearchIndex } from '@quire/shared/search/types';
import type { AppContext } from '../context';
import type { DeploymentFiles } from '../storage/deployment-store';
import { generationFiles } from './generations';
import type { SearchTarget } from './search-target';

/** What a deployment's index is looked up by. */
export interface IndexedDeployment {
  files: DeploymentFiles;
  /** when the deployment was created (a reindex started after it covers it) */
  createdAt: Date;
}

/**
 * The index a deployment answers from: the newest completed reindex's generation when that job
 * started after the deployment existed and wrote one for it, else the build's own; null when the
 * deployment has no index.
 * @throws Error when the store cannot be read.
 */
export async function deploymentIndex(ctx: AppContext, projectId: string, deployment: IndexedDeployment): Promise<SearchIndex | null> {
  const generation = await ctx.search.generations.current(projectId);
  if (generation && generation.startedAt.getTime() >= deployment.createdAt.getTime()) {
    const index = await ctx.search.indexes.get(generationFiles(deployment.files, generation.jobId));
    if (index) return index;
  }
  return ctx.search.indexes.get(deployment.files);
}

/** One search request. */
export interface SearchRequest {
  projectId: string;
  q: string;
  /** hits wanted, 1..50 */
  limit: number;
  /** whether the reader may see a gated record; absent: gated records are never returned */
  canRead?: (audience: readonly string[]) => boolean;
  /**
   * Identifies `canRead` for the answer cache (search/result-cache.ts): readers with the same key
   * must get the same verdicts (e.g. their sorted audience tags; `*` for a reader who sees
   * everything). Absent with `canRead` given: the answer is not cached.
   */
  readerKey?: string;
  /**
   * Where hits' URLs start: the site's absolute root (`http://acme-docs.localhost:4000/`) for the
   * API, `/` for the site's own endpoint (path-relative URLs).
   */
  siteRoot: string;
  /** drops hits the reader may not open for other reasons (the site's access rules); applied after the query */
  allow?: (hit: SearchHit) => boolean | Promise<boolean>;
  /**
   * The surface a reader searched from (the site's dialog, the API, the site's MCP server): the
   * search is counted for analytics (`ctx.analytics.search`: top searches, searches without results).
   * Absent: not counted (the server's own searches, e.g. the assistant's retrieval).
   */
  source?: 'site' | 'api' | 'mcp';
  /** only pages of this language division (docs.json `navigation.languages` code); absent: every language */
  language?: string;
}

/** The URL of a hit: the site root, the version's prefix, the page path, `#anchor`. */
export function hitUrl(siteRoot: string, basePath: string, hit: Pick<SearchHit, 'path' | 'anchor'>): string {
  const root = siteRoot.endsWith('/') ? siteRoot.slice(0, -1) : siteRoot;
  const page = hit.path.split('/').map(encodeURIComponent).join('/');
  return `${root}${basePath}/${page}${hit.anchor ? `#${encodeURIComponent(hit.anchor)}` : ''}`;
}

/**
 * Searches `target` (null: nothing deployed: no hits, no gap) for `request`. A search whose
 * deployment has an index but finds nothing the reader may see is counted as a content gap.
 * @throws Error when the store cannot be read.
 */
export async function runSearch(ctx: AppContext, target: Pick<SearchTarget, 'files' | 'createdAt' | 'version' | 'basePath'> | null, request: SearchRequest): Promise<SearchResult[]> {
  if (!target) return [];
  const index = await deploymentIndex(ctx, request.projectId, target);
  if (!index) return [];
  const language = request.language;
  const query = () =>
    index.search({
      q: request.q,
      limit: request.limit,
      ...(request.canRead ? { canRead: request.canRead } : {}),
      ...(language !== undefined ? { language } : {}),
    });
  const readerKey = request.canRead ? request.readerKey : '';
  // the answer cache keys by query text: a language's answers are kept apart under a prefix no query has (NUL)
  const cacheKey = language === undefined ? request.q : `${language}\u0000${request.q}`;
  let hits = readerKey === undefined ? query() : ctx.search.results.search(index, cacheKey, request.limit, readerKey, query);
  if (request.allow) {
    const allow = request.allow;
    const verdicts = await Promise.all(hits.map((h) => allow(h)));
    hits = hits.filter((_, i) => verdicts[i]);
  }
  if (hits.length === 0) ctx.search.gaps.record({ projectId: request.projectId, source: 'search', topic: request.q, version: target.version });
  if (request.source) ctx.analytics.search({ projectId: request.projectId, query: request.q, results: hits.length, source: request.source });
  return hits.map((hit) => ({
    title: hit.title,
    path: hit.path,
    url: hitUrl(request.siteRoot, target.basePath, hit),
    section: hit.section ?? null,
    snippet: hit.snippet,
    version: target.version,
    score: hit.score,
  }));
}
