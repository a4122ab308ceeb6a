import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import { apiHostNames } from '../services/domains';
import { answerDomainNotice } from './custom-domain-pages';
import { serveSite } from './serve-site';
import { rewriteSiteByPath, SITES_BY_PATH_PREFIX } from './site-by-path';
import { siteAccessOf } from './site-access';
import { DeferredHost, DomainNotice, SiteResolver, type HostRoute } from './site-resolver';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Set on a raw request the listener wrapper already found not to be for a site. */
const NOT_A_SITE = Symbol('quire.notASite');
type CheckedRequest = IncomingMessage & { [NOT_A_SITE]?: true };

/**
 * Site hosting (decisions.md sections 3 and 6): every request whose `Host` is a site host is
 * answered completely here, on the raw response; the API's auth, rate limit and routes never
 * see it. Other hosts pass through untouched.
 *
 * Two entrances, one code path (`serveSite`):
 * - the HTTP server's request listener is wrapped, so on a listening server a site request is
 *   answered before Fastify builds its request/reply objects (this keeps serving close to
 *   nginx's speed: one Map lookup for the host, a path check, one or two Map lookups for the
 *   file, one `writeHead` with prepared headers; nothing rendered, no disk read once cached);
 * - an `onRequest` hook (hijacking the reply) covers requests that do not come through the
 *   server, such as `app.inject()` in tests.
 *
 * Custom domains (decisions.md section 4): an active one is served like its project's production
 * host; a pending or removed one gets its fixed answers (custom-domain-pages.ts: the verification
 * token, or the "no longer connected" page). A host whose route waits for the custom domains being
 * read (PostgreSQL, just after a change) is routed once they arrive.
 *
 * A request to the API's host for `/sites/<site host>/mcp` is that site's MCP server
 * (site-by-path.ts: the address Node-based MCP clients reach for `*.localhost` sites).
 */
export default fp(
  async (app) => {
    const { config, db, events, log, deploymentStore, metrics } = app.ctx;
    const apiHosts = apiHostNames(config);
    const resolver = new SiteResolver(db, { store: deploymentStore, sitesDomain: config.sitesDomain, apiHosts, log }, events);
    app.addHook('onClose', async () => resolver.close());
    const access = siteAccessOf(app.ctx);

    /** Answers a site request (deployment or custom-domain notice) on the raw response. */
    const answer = (req: IncomingMessage, res: ServerResponse, route: Exclude<HostRoute, undefined>, requestLog: typeof log) => {
      if (route instanceof DomainNotice) answerDomainNotice(req, res, route);
      else serveSite(req, res, route, requestLog, access, resolver.version);
      metrics.siteResponse(res);
    };

    /** For a request to the API's host: the site its `/sites/<site host>/mcp` path names (site-by-path.ts), else undefined. */
    const routeByPath = (req: IncomingMessage): HostRoute | DeferredHost =>
      req.url?.startsWith(SITES_BY_PATH_PREFIX) && rewriteSiteByPath(req, config.sitesDomain) ? resolver.resolve(req.headers.host) : undefined;
    /** The route of a request, its Host's or else its path's. */
    const routeOf = (req: IncomingMessage): HostRoute | DeferredHost => {
      const resolved = resolver.resolve(req.headers.host);
      return resolved === undefined ? routeByPath(req) : resolved; // null: a site host with nothing to serve
    };
    /** Gives `then` a route once the custom domains it waited for arrived (an API route may still be a site's by path). */
    const settle = (req: IncomingMessage, deferred: DeferredHost, then: (route: HostRoute) => void) =>
      void deferred.settled.then((r) => {
        const next = r.route === undefined ? routeByPath(req) : r.route;
        if (next instanceof DeferredHost) settle(req, next, then);
        else then(next);
      });

    const fastifyListeners = app.server.listeners('request') as RequestListener[];
    if (fastifyListeners.length === 1) {
      const fastifyHandler = fastifyListeners[0]!;
      app.server.removeListener('request', fastifyHandler);
      const route = (req: CheckedRequest, res: ServerResponse, resolved: HostRoute) => {
        if (resolved !== undefined) return answer(req, res, resolved, log);
        req[NOT_A_SITE] = true;
        fastifyHandler(req, res);
      };
      app.server.on('request', (req: CheckedRequest, res: ServerResponse) => {
        const resolved = routeOf(req);
        if (resolved instanceof DeferredHost) settle(req, resolved, (r) => route(req, res, r));
        else route(req, res, resolved);
      });
    }

    app.addHook('onRequest', (req, reply, done) => {
      if ((req.raw as CheckedRequest)[NOT_A_SITE]) return done();
      const route = (resolved: HostRoute) => {
        if (resolved === undefined) return done();
        reply.hijack();
        answer(req.raw, reply.raw, resolved, req.log);
      };
      const resolved = routeOf(req.raw);
      if (resolved instanceof DeferredHost) settle(req.raw, resolved, route);
      else route(resolved);
    });
  },
  { name: 'sites' },
);
