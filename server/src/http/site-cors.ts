/**
 * CORS for the public API routes a documentation site calls from the browser (decisions.md section 7:
 * "Public routes are rate-limited per IP and send CORS headers for the project's site origins";
 * section 6: site hosts and custom domains). Exports:
 *
 * - {@link siteOrigins}`(ctx, projectId)`: the project's site origins (production, its preview hosts,
 *   its active custom domains), remembered on `ctx.siteOrigins` ({@link SiteOriginCache}).
 * - {@link isSiteOrigin}`(ctx, projectId, origin)`: whether an `Origin` header value is one of them;
 *   {@link siteOriginKind}: which kind of site it is (production or preview).
 * - {@link registerSiteCors}`(app, paths)`: call it inside a route plugin, before declaring the
 *   routes, with the plugin-relative paths (`/projects/:projectId/feedback/page`); it answers their
 *   `OPTIONS` preflight and adds the CORS headers to every answer of those paths (errors included).
 *   The project is read from the `projectId` path parameter.
 *
 * What a request gets (the Fetch standard's CORS protocol):
 * - `Origin` one of the project's site origins: `Access-Control-Allow-Origin: <origin>` and
 *   `Access-Control-Expose-Headers` (rate-limit headers, `Retry-After`, `X-Request-Id`); no
 *   `Access-Control-Allow-Credentials` (these routes use no cookies; a Bearer key is an explicit header);
 * - preflight (`OPTIONS`) from such an origin: 204 with `Access-Control-Allow-Methods: GET, POST, OPTIONS`,
 *   `Access-Control-Allow-Headers: Content-Type, Authorization, Idempotency-Key, X-Audience-Token`, `Access-Control-Max-Age: 600`;
 * - any other origin, no `Origin`, or an unknown project: no CORS headers; a preflight then answers
 *   204 without them, so the browser refuses the call (no 403: nothing about the project is told).
 * Every answer of these paths carries `Vary: Origin`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../context';
import type { EventBus } from '../events';
import { siteHostName } from '../deployments/site-host';

/** Methods a preflight allows. */
export const SITE_CORS_METHODS = 'GET, POST, OPTIONS';
/** Request headers a preflight allows. */
export const SITE_CORS_HEADERS = 'Content-Type, Authorization, Idempotency-Key, X-Audience-Token';
/** How long (seconds) a browser may reuse a preflight answer. */
export const SITE_CORS_MAX_AGE = 600;
/** Response headers a site's script may read. */
export const SITE_CORS_EXPOSED = 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id';

/** The kind of site an origin serves: `production` (the production host or a custom domain) or `preview` (a preview host). */
export type SiteOriginKind = 'production' | 'preview';

/** A project's site origins (lower case), each with the kind of site it serves. */
export type SiteOrigins = ReadonlyMap<string, SiteOriginKind>;

/** Projects whose origins are remembered at most (least recently used dropped first). */
const MAX_PROJECTS = 10_000;

/**
 * The site origins of projects, remembered per project; an entry is dropped on `project.changed`
 * (slug, custom domains: the domains service emits it on every domain change) and
 * `deployment.changed` (a new preview host), everything on `reconnected`. One per app (`ctx.siteOrigins`).
 */
export class SiteOriginCache {
  private readonly byProject = new LRUCache<string, Promise<SiteOrigins>>({ max: MAX_PROJECTS });

  constructor(events: EventBus) {
    events.on('project.changed', ({ projectId }) => this.byProject.delete(projectId));
    events.on('deployment.changed', ({ projectId }) => this.byProject.delete(projectId));
    events.on('reconnected', () => this.byProject.clear());
  }

  /** The remembered origins of `projectId`, read with `load` when missing (a failed read is not remembered). */
  get(projectId: string, load: () => Promise<SiteOrigins>): Promise<SiteOrigins> {
    const hit = this.byProject.get(projectId);
    if (hit) return hit;
    const loading = load();
    this.byProject.set(projectId, loading);
    loading.catch(() => {
      if (this.byProject.get(projectId) === loading) this.byProject.delete(projectId);
    });
    return loading;
  }
}

/**
 * The origins a browser sends for host `host` (lower case, no port) served on `port`:
 * `http://host`, `https://host`, and both with `:port` unless it is the scheme's default.
 */
function originsOfHost(host: string, port: number): string[] {
  const out = [`http://${host}`, `https://${host}`];
  if (port !== 80) out.push(`http://${host}:${port}`);
  if (port !== 443) out.push(`https://${host}:${port}`);
  return out;
}

/** Reads the origins of a project (see {@link siteOrigins}); an empty map for an unknown project. */
async function loadOrigins(ctx: AppContext, projectId: string): Promise<SiteOrigins> {
  const project = await ctx.projects.get(projectId);
  if (!project) return new Map();
  const { sitesDomain, port } = ctx.config;
  const [previews, domains] = await Promise.all([
    ctx.db.prisma.deployment.findMany({ where: { projectId, kind: 'preview' }, select: { previewName: true }, distinct: ['previewName'] }),
    ctx.db.prisma.domain.findMany({ where: { projectId, status: 'active' }, select: { domain: true } }),
  ]);
  const hosts = new Map<string, SiteOriginKind>([[siteHostName(project.slug, sitesDomain), 'production']]);
  for (const d of domains) hosts.set(d.domain.toLowerCase(), 'production');
  if (project.customDomain) hosts.set(project.customDomain.toLowerCase(), 'production');
  for (const p of previews) if (p.previewName) hosts.set(siteHostName(project.slug, sitesDomain, p.previewName), 'preview');
  return new Map([...hosts].flatMap(([host, kind]) => originsOfHost(host, port).map((origin): [string, SiteOriginKind] => [origin, kind])));
}

/**
 * The project's site origins (decisions.md section 6): its production site
 * `http(s)://<slug>-docs.<QUIRE_SITES_DOMAIN>[:<port>]` and its active custom domains (`production`),
 * the host of each preview channel it has deployed (`<preview>--<slug>-docs...`, `preview`), each as
 * `http://` and `https://`, with and without the server's port. Served from `ctx.siteOrigins` after the first read.
 * @returns an empty map for an unknown project; never throws for it (database failures reject).
 */
export function siteOrigins(ctx: AppContext, projectId: string): Promise<SiteOrigins> {
  return ctx.siteOrigins.get(projectId, () => loadOrigins(ctx, projectId));
}

/**
 * The kind of site `origin` (an `Origin` header value; case-insensitive) is of the project, or
 * undefined when it is none of {@link siteOrigins} (or absent, or `null`).
 */
export async function siteOriginKind(ctx: AppContext, projectId: string, origin: string | undefined): Promise<SiteOriginKind | undefined> {
  if (!origin || origin === 'null' || !projectId) return undefined;
  return (await siteOrigins(ctx, projectId)).get(origin.toLowerCase());
}

/** Whether `origin` (an `Origin` header value; case-insensitive) is one of {@link siteOrigins}. */
export async function isSiteOrigin(ctx: AppContext, projectId: string, origin: string | undefined): Promise<boolean> {
  return (await siteOriginKind(ctx, projectId, origin)) !== undefined;
}

/** The `projectId` path parameter of a request, or '' when the route has none. */
function projectIdOf(req: FastifyRequest): string {
  const params = req.params as Record<string, unknown> | undefined;
  return typeof params?.projectId === 'string' ? params.projectId : '';
}

/**
 * Answers preflights of `paths` and adds CORS headers to their answers (see the module comment).
 * Call inside the route plugin that declares `paths`, before declaring them (the hook is the
 * plugin's own: other routes are untouched).
 * @param paths route paths relative to `app`'s prefix, with `:projectId` (`/projects/:projectId/feedback/page`)
 */
export function registerSiteCors(app: FastifyInstance, paths: readonly string[]): void {
  const covered = new Set(paths.map((p) => `${app.prefix}${p}`));
  for (const path of paths) {
    app.options(path, { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
      const origin = req.headers.origin;
      reply.header('vary', 'Origin');
      if (await isSiteOrigin(app.ctx, projectIdOf(req), origin)) {
        reply.headers({
          'access-control-allow-origin': origin,
          'access-control-allow-methods': SITE_CORS_METHODS,
          'access-control-allow-headers': SITE_CORS_HEADERS,
          'access-control-max-age': String(SITE_CORS_MAX_AGE),
        });
      }
      return reply.code(204).send();
    });
  }
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method === 'OPTIONS' || req.routeOptions.url === undefined || !covered.has(req.routeOptions.url)) return payload;
    reply.header('vary', 'Origin');
    const origin = req.headers.origin;
    // a failed read of the origins must not turn the answer into a 500: it just goes without CORS
    const allowed = await isSiteOrigin(app.ctx, projectIdOf(req), origin).catch(() => false);
    if (allowed) reply.headers({ 'access-control-allow-origin': origin, 'access-control-expose-headers': SITE_CORS_EXPOSED });
    return payload;
  });
}
