/**
 * Who may touch the resource a route's path names is decided before anything reads the request's
 * input (decisions.md section 10: another organization's resources answer 404, never 403, so
 * their existence does not leak; CWE-203, observable discrepancy). An `onRequest` hook, after
 * authentication, the permission check (403 `forbidden`) and the rate limit, and before the body
 * is read, parsed (malformed JSON 400, 413, 415) or validated (400): a resource the caller may not
 * see answers 404 `not_found` whatever the body and query string, so neither its existence nor
 * the route's input rules show. Order of answers on an API route: 401, 403 (permission), 429,
 * 404 (resource), then 400/413/415 (input).
 *
 * - `/projects/:projectId/...`: the project, by {@link projectForCaller}'s rule (another
 *   organization's project, or one outside a project-scoped key's project: 404). The record is
 *   kept on `req.project` for the handler. Ids below a project (builds, reviews, rules, ...) are
 *   looked up by their handlers: inside a project the caller may see, a 400 for bad input says
 *   nothing about them (it comes whether they exist or not).
 * - Other routes with path parameters declare `config.resource` (http/route-config.ts); its
 *   lookup runs here (and again in the handler: these are rare administrative calls).
 * - A value that is not a well-formed id of its kind (`isId`) names no resource: it is left to
 *   validation and the handler as before, and no database sees it (text a database would refuse
 *   stays plugins/stored-text.ts's 400).
 * - Public routes and `/trpc` are not gated (no API key; tRPC checks in trpc/trpc.ts).
 *
 * An API-key route with a path parameter that is neither under `:projectId` nor declared in
 * `config.resource` makes the app fail to start (`ready()`), so no route can skip the gate unnoticed.
 * On the hot path (a cached project) the hook is synchronous: no promise per request.
 */
import fp from 'fastify-plugin';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { isId } from '@quire/shared/ids';
import '../http/route-config';
import { projectForCaller, type ProjectRecord } from '../services/projects';
import { takesApiKeys } from './auth';

/** The path parameter naming a route's project. */
const PROJECT_PARAM = 'projectId';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The project the route's path names, as the caller may see it (set before the body is read);
     * null on routes naming no project, and when `projectId` is not a well-formed project id.
     */
    project: ProjectRecord | null;
  }
}

/** The names of a route path's parameters (`:name`, and `*` for a wildcard). */
function pathParams(url: string): string[] {
  const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  return url.endsWith('*') ? [...names, '*'] : names;
}

/**
 * Refuses, at registration, an API-key route that names a resource the gate would not check.
 * @throws Error naming the route when a path parameter is neither under `:projectId` nor declared
 *   in `config.resource`, or when `config.resource.param` is not a parameter of the path.
 */
export function checkGatedRoute(route: Pick<RouteOptions, 'url' | 'method' | 'config'>): void {
  const config = route.config ?? {};
  if (!takesApiKeys(config, route.url)) return;
  const params = pathParams(route.url);
  const resource = config.resource;
  if (resource && !params.includes(resource.param)) {
    throw new Error(`Route ${String(route.method)} ${route.url}: config.resource.param "${resource.param}" is not a parameter of its path.`);
  }
  if (params.length > 0 && !params.includes(PROJECT_PARAM) && !resource) {
    throw new Error(
      `Route ${String(route.method)} ${route.url} names :${params.join(', :')} outside /projects/:projectId: declare config.resource ` +
        '(http/route-config.ts) so the caller\'s access is checked before its input.',
    );
  }
}

export default fp(
  async (app) => {
    const { ctx } = app;
    app.decorateRequest('project', null);
    // Checked once every route is in: later onRoute hooks may still change a route's config (the
    // reference page's routes become public in plugins/openapi.ts).
    const routes: RouteOptions[] = [];
    app.addHook('onRoute', (route) => void routes.push(route));
    app.addHook('onReady', async () => {
      for (const route of routes.splice(0)) checkGatedRoute(route);
    });

    // Callback style: synchronous when the project is cached (the key and rate-limit hooks are too).
    app.addHook('onRequest', (req, _reply, done) => {
      try {
        const pending = gate(req);
        if (pending) pending.then(() => done(), (err: unknown) => done(err as Error));
        else done();
      } catch (err) {
        done(err as Error);
      }
    });

    /** Resolves the resource the path names for `req.auth`; throws (or rejects with) ApiError not_found. */
    function gate(req: FastifyRequest): Promise<void> | void {
      const auth = req.auth;
      if (!auth) return; // public routes, /trpc, unknown routes
      const params = req.params as Record<string, string | undefined>;
      const projectId = params[PROJECT_PARAM];
      if (projectId !== undefined) {
        if (!isId('project', projectId)) return;
        const found = projectForCaller(ctx, auth, projectId);
        if (!(found instanceof Promise)) {
          req.project = found;
          return;
        }
        return found.then((record) => {
          req.project = record;
        });
      }
      const resource = req.routeOptions.config.resource;
      const id = resource ? params[resource.param] : undefined;
      if (!resource || id === undefined || !isId(resource.kind, id)) return;
      return resource.find(ctx, auth, id).then(() => undefined);
    }
  },
  { name: 'resource-gate', dependencies: ['auth', 'rate-limit'] },
);
