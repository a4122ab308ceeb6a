import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../context';
import { decideSiteAccess, type SiteAccessDecision, type SiteAccessInput } from '../access/decide';
import type { Denial } from '../access/denial-log';
import { checkPreviewLinkPassword, clientIp, findPreviewLink, recordDenial } from '../access/policy';
import type { PreviewLinkLookup, PreviewPasswordCheck } from '../access/preview-links';
import { secretKeyOf } from '../git/secret-box';
import { verifyAudienceToken, type AudienceGrant, type TokenRefusal } from '../services/audience-tokens';
import { previewCookieKey, previewPassKey } from '../access/preview-access';
import { projectSettingsOf } from '../services/projects';
import { accessState } from '../access/access-state';
import type { CompiledPolicy } from '../access/policy-cache';
import type { SearchResult } from '@quire/shared/api/search';
import type { DeploymentSite } from './deployment-site';
import { searchSite, type SiteSearchQuery } from './site-search';
import { siteEndpointHandlersOf, type SiteEndpointHandlers } from './site-endpoint-handlers';
import type { FileAnswer } from './deployment-site';
import { classifyReader, servedKindOf } from '../analytics/readers';
import { PersonalPages } from './personalise';

/**
 * What the site gate (site-gate.ts) asks of the rest of the server: the access decision, token
 * verification, the visitor's address, the denial log, preview links and the project's preview
 * setting. One object per app ({@link siteAccessOf}), so the gate itself stays free of the
 * database and testable with a stand-in.
 */
export interface SiteAccess {
  /** The visitor's canonical address (`access/policy.ts` `clientIp`, trusted proxies honoured). */
  clientIp(req: IncomingMessage): string;
  /**
   * The one access decision (`access/decide.ts` `decideSiteAccess`: token, rules, allowlists, page
   * gate); synchronous without a token once the project's rules are cached.
   */
  decide(input: SiteAccessInput & { pageAudience: string[] }): SiteAccessDecision | Promise<SiteAccessDecision>;
  /**
   * The project's compiled access rules and IP allowlists (access/policy-cache.ts), synchronous once
   * cached: the index files' page filter (page-filter.ts) reads which pages they cover.
   * @throws (through the promise) when they cannot be read
   */
  policy(projectId: string): CompiledPolicy | Promise<CompiledPolicy>;
  /** Verifies an audience token for the project (`services/audience-tokens.ts`). */
  verifyToken(projectId: string, token: string): Promise<{ ok: true; grant: AudienceGrant } | { ok: false; reason: TokenRefusal }>;
  /** Records a denied request for `/access-logs` (buffered, never fails). */
  recordDenial(denial: Denial): void;
  /** The preview link a token names, read now (`access/preview-links.ts`). */
  findPreviewLink(token: string): Promise<PreviewLinkLookup | null>;
  /** The preview link a token names, as known at most {@link PREVIEW_LINK_TTL_MS} ago (for every request of a private preview). */
  previewLink(token: string): PreviewLinkLookup | null | Promise<PreviewLinkLookup | null>;
  /**
   * Checks a password typed for a preview link from address `ip` (`access/preview-links.ts`:
   * constant time, `wrong` for inactive links, `throttled` after too many wrong ones).
   */
  checkPreviewLinkPassword(linkId: string, ip: string, password: string): Promise<PreviewPasswordCheck>;
  /**
   * Whether the project's preview `previewName` opens only with a `quire_preview` cookie
   * (decisions.md section 11): when the project protects its previews (`settings.protectPreviews`,
   * default true), and whatever that setting when the preview has a preview link (in any state: a
   * preview once shared by link does not become public when its link ends). Synchronous once read;
   * the setting is read again after `project.changed`, the links after `access.changed` or
   * {@link PREVIEW_LINK_TTL_MS}.
   */
  previewClosed(projectId: string, previewName: string): boolean | Promise<boolean>;
  /** The key signing `quire_preview` cookies (preview-access.ts). */
  previewCookieKey(): Buffer;
  /** The key signing member passes (preview-access.ts). */
  previewPassKey(): Buffer;
  /** Runs a site search for a reader (site-search.ts `searchSite`). @throws ApiError not_found for an unknown version. */
  search(site: DeploymentSite, query: SiteSearchQuery): Promise<SearchResult[]>;
  /** The handlers of the site's feedback, chat and MCP endpoints (site-endpoint-handlers.ts). */
  endpoints: SiteEndpointHandlers;
  /**
   * Counts a file served with status 200 as a page view (`ctx.analytics`; analytics/readers.ts):
   * a page's HTML or `.md`, `llms.txt`, `llms-full.txt` of a production or version deployment
   * (previews, assets, HEAD requests are not counted). Synchronous, never throws.
   */
  recordView(req: IncomingMessage, site: DeploymentSite, answer: FileAnswer): void;
  /** The app's personalised pages: placeholders found per file, personalised forms cached per claim set (personalise.ts). */
  personal: PersonalPages;
}

/** How long a preview link's state is believed on the requests of a private preview, in ms (a revoked link stops opening it within this). */
export const PREVIEW_LINK_TTL_MS = 5_000;

/**
 * The {@link SiteAccess} of an app: calls into access/, services/audience-tokens.ts and the
 * project cache with `ctx`; keeps the projects' preview setting, whether previews have links and
 * recently checked preview links in memory (dropped on `project.changed`, `access.changed` and `reconnected`).
 */
export function siteAccessOf(ctx: AppContext): SiteAccess {
  const protect = new Map<string, boolean>();
  const links = new LRUCache<string, { link: PreviewLinkLookup | null }>({ max: 10_000, ttl: PREVIEW_LINK_TTL_MS });
  /** `<projectId> <previewName>` → whether that preview has a preview link */
  const linked = new LRUCache<string, boolean>({ max: 10_000, ttl: PREVIEW_LINK_TTL_MS });
  let key: Buffer | undefined;
  let passKey: Buffer | undefined;
  /** bumped by every invalidation: a read that started before one is not kept */
  let generation = 0;
  ctx.events.on('project.changed', ({ projectId }) => {
    generation++;
    protect.delete(projectId);
  });
  ctx.events.on('access.changed', () => {
    generation++;
    links.clear();
    linked.clear();
  });
  ctx.events.on('reconnected', () => {
    generation++;
    protect.clear();
    links.clear();
    linked.clear();
  });
  const protects = (projectId: string): boolean | Promise<boolean> => {
    const known = protect.get(projectId);
    if (known !== undefined) return known;
    const started = generation;
    // read from the row, not the project cache, so that a read overtaken by `project.changed` is never kept
    return ctx.db.prisma.project.findUnique({ where: { id: projectId }, select: { settings: true } }).then((row) => {
      const value = row ? projectSettingsOf(row.settings).protectPreviews : true;
      if (started === generation) protect.set(projectId, value);
      return value;
    });
  };
  const hasLinks = (projectId: string, previewName: string): boolean | Promise<boolean> => {
    const id = `${projectId} ${previewName}`;
    const known = linked.get(id);
    if (known !== undefined) return known;
    const started = generation;
    return ctx.db.prisma.previewLink.findFirst({ where: { projectId, previewName }, select: { id: true } }).then((row) => {
      if (started === generation) linked.set(id, row !== null);
      return row !== null;
    });
  };
  // Without X-Forwarded-For the address is the socket's (access/policy.ts `clientIp`): worked out once
  // per connection, not on every request of a keep-alive connection (parsing an address costs more
  // than serving a cached page's headers).
  const socketAddresses = new WeakMap<object, string>();
  const ipOf = (req: IncomingMessage): string => {
    if (req.headers['x-forwarded-for'] !== undefined) return clientIp(ctx, req);
    let ip = socketAddresses.get(req.socket);
    if (ip === undefined) socketAddresses.set(req.socket, (ip = clientIp(ctx, req)));
    return ip;
  };
  return {
    clientIp: ipOf,
    decide: (input) => decideSiteAccess(ctx, input),
    policy: (projectId) => accessState(ctx).policies.get(projectId),
    verifyToken: (projectId, token) => verifyAudienceToken(ctx, projectId, token),
    recordDenial: (denial) => recordDenial(ctx, denial),
    findPreviewLink: (token) => findPreviewLink(ctx, token),
    previewLink(token) {
      const hit = links.get(token);
      if (hit) return hit.link;
      return findPreviewLink(ctx, token).then((link) => {
        links.set(token, { link });
        return link;
      });
    },
    checkPreviewLinkPassword: (linkId, ip, password) => checkPreviewLinkPassword(ctx, linkId, ip, password),
    previewClosed(projectId, previewName) {
      const closed = protects(projectId);
      if (closed === true) return true;
      if (closed === false) return hasLinks(projectId, previewName);
      return closed.then((yes) => yes || hasLinks(projectId, previewName));
    },
    previewCookieKey: () => (key ??= previewCookieKey(secretKeyOf(ctx.config))),
    previewPassKey: () => (passKey ??= previewPassKey(secretKeyOf(ctx.config))),
    search: (site, query) => searchSite(ctx, site, query),
    personal: new PersonalPages(),
    endpoints: siteEndpointHandlersOf(ctx),
    recordView(req, site, answer) {
      if (answer.status !== 200 || req.method === 'HEAD' || site.previewName !== undefined) return;
      const served = servedKindOf(answer.path, answer.page);
      if (!served) return;
      const userAgent = req.headers['user-agent'] ?? '';
      const { reader, agent } = classifyReader(userAgent, served.kind);
      ctx.analytics.pageView({
        projectId: site.projectId,
        // a version's pages under its prefix (`v1/guides/setup`), as their URLs
        path: site.basePath ? `${site.basePath.slice(1)}/${served.path}` : served.path,
        reader,
        agent,
        visitor: { ip: ipOf(req), userAgent },
      });
    },
  };
}
