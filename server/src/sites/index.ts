import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { apiBaseUrl } from '../env';
import type { DeploymentSite } from './deployment-site';
import { hostName } from './host';
import { sitePathOf } from './request-path';
import { sendAnswer, sendMethodNotAllowed, sendPlainNotFound } from './respond';
import { SiteResolver } from './site-resolver';

/**
 * Site hosting (decisions.md sections 3 and 6): an `onRequest` hook that claims every request
 * whose `Host` is a site host and answers it completely on the raw response (the reply is
 * hijacked, so the API's auth, rate limit and routes never see it). Other hosts pass through.
 *
 * Hot path for a cached page: one Map lookup for the host, a path check, one or two Map lookups
 * for the file, one `writeHead` with prepared headers. Nothing is rendered and the disk is read
 * only on a file's first request.
 */
export default fp(
  async (app) => {
    const { config, db, events, log } = app.ctx;
    const apiHosts = ['localhost', '127.0.0.1', '[::1]', config.host, hostName(new URL(apiBaseUrl(config)).host), config.sitesDomain];
    const resolver = new SiteResolver(db, { dataDir: config.dataDir, sitesDomain: config.sitesDomain, apiHosts, log }, events);

    const serve = (req: FastifyRequest, reply: FastifyReply, site: DeploymentSite | null): void => {
      const res = reply.raw;
      if (!site) return sendPlainNotFound(req.raw, res);
      const target = sitePathOf(req.raw.url ?? '/');
      if (!target) return sendPlainNotFound(req.raw, res);
      const answer = site.answer(target.path, target.trailingSlash);
      if (!(answer instanceof Promise)) return sendAnswer(req.raw, res, answer);
      answer.then(
        (a) => sendAnswer(req.raw, res, a),
        (err: unknown) => {
          req.log.error({ err }, 'site file cannot be read');
          if (!res.headersSent) sendPlainNotFound(req.raw, res);
        },
      );
    };

    app.addHook('onRequest', (req, reply, done) => {
      const resolved = resolver.resolve(req.headers.host);
      if (resolved === undefined) return done();
      reply.hijack();
      const method = req.raw.method;
      if (method !== 'GET' && method !== 'HEAD') return sendMethodNotAllowed(reply.raw);
      if (resolved instanceof Promise) {
        resolved.then(
          (site) => serve(req, reply, site),
          () => sendPlainNotFound(req.raw, reply.raw),
        );
      } else serve(req, reply, resolved);
    });
  },
  { name: 'sites' },
);
