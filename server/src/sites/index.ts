import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import { apiBaseUrl } from '../env';
import { hostName } from './host';
import { serveSite } from './serve-site';
import { SiteResolver } from './site-resolver';

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
 */
export default fp(
  async (app) => {
    const { config, db, events, log, deploymentStore, metrics } = app.ctx;
    const apiHosts = ['localhost', '127.0.0.1', '[::1]', config.host, hostName(new URL(apiBaseUrl(config)).host), config.sitesDomain];
    const resolver = new SiteResolver(db, { store: deploymentStore, sitesDomain: config.sitesDomain, apiHosts, log }, events);
    app.addHook('onClose', async () => resolver.close());

    const fastifyListeners = app.server.listeners('request') as RequestListener[];
    if (fastifyListeners.length === 1) {
      const fastifyHandler = fastifyListeners[0]!;
      app.server.removeListener('request', fastifyHandler);
      app.server.on('request', (req: CheckedRequest, res: ServerResponse) => {
        const resolved = resolver.resolve(req.headers.host);
        if (resolved === undefined) {
          req[NOT_A_SITE] = true;
          fastifyHandler(req, res);
        } else {
          serveSite(req, res, resolved, log);
          metrics.siteResponse(res);
        }
      });
    }

    app.addHook('onRequest', (req, reply, done) => {
      if ((req.raw as CheckedRequest)[NOT_A_SITE]) return done();
      const resolved = resolver.resolve(req.headers.host);
      if (resolved === undefined) return done();
      reply.hijack();
      serveSite(req.raw, reply.raw, resolved, req.log);
      metrics.siteResponse(reply.raw);
    });
  },
  { name: 'sites' },
);
