/**
 * Custom domains of a project's site (interface-spec.md "Domains"; decisions.md sections 2 and 4):
 * add (201, `pending`), list (not paginated), get, verify (the HTTP check), remove (204). Reads need
 * `projects:read`, writes `projects:write`. Plus the public `GET /v1/tls/ask` a TLS-terminating
 * proxy asks before fetching a certificate on demand (Caddy's `on_demand_tls { ask ... }`).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '@quire/shared/errors';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { CreateDomainBodySchema, DOMAIN_VERIFICATION_PATH, DomainParamsSchema, DomainSchema, MAX_DOMAINS_PER_PROJECT, TlsAskQuerySchema } from '@quire/shared/api/domains';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { certificateHost, createDomain, deleteDomain, getDomain, listDomains, verifyDomain } from '../../../services/domains';

const domainRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Domains'];
  const path = '/projects/:projectId/domains';

  app.post(path, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Add a custom domain',
      description:
        'Adds a host name (e.g. `docs.example.com`) that will serve the project\'s production site once verified. The name is lower-cased and a trailing dot dropped; ' +
        'it must be letters, digits and hyphens in two labels or more (at most 253 characters, labels at most 63), without scheme, port or path, not an IP address, ' +
        'not the sites domain or a name under it, not the API\'s host (400 with details.field "domain"). ' +
        'A domain belongs to one project of the whole service while pending or active (409 `conflict` otherwise, without naming who has it). ' +
        `At most ${MAX_DOMAINS_PER_PROJECT} domains per project (409 beyond). ` +
        `Answers 201 with status \`pending\` and \`verification\`: point the domain at this server, then call \`/verify\`. Test keys get 403. Audited as domain.added.`,
      params: ProjectParamsSchema,
      body: CreateDomainBodySchema,
      response: { 201: dataEnvelope(DomainSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => reply.code(201).send({ data: await createDomain(app.ctx, req.auth, req.params.projectId, req.body) }));

  app.get(path, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'List custom domains',
      description: `The project's pending and active domains, oldest first. Not paginated (at most ${MAX_DOMAINS_PER_PROJECT}); removed domains are not listed.`,
      params: ProjectParamsSchema,
      response: { 200: z.object({ data: z.array(DomainSchema) }), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await listDomains(app.ctx, req.auth, req.params.projectId) }));

  app.get(`${path}/:domainId`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Get a custom domain',
      description: 'One domain with its status, verification instructions and the outcome of the last check. 404 once removed.',
      params: DomainParamsSchema,
      response: { 200: dataEnvelope(DomainSchema), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await getDomain(app.ctx, req.auth, req.params.projectId, req.params.domainId) }));

  app.post(`${path}/:domainId/verify`, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Verify a custom domain',
      description:
        `Fetches \`http://<domain>${DOMAIN_VERIFICATION_PATH}\` (plain HTTP, port 80, redirects not followed, through the outbound address policy: ` +
        'names resolving to loopback, private or link-local addresses are refused unless QUIRE_ALLOW_PRIVATE_NETWORK=1). This server answers that path for its pending domains ' +
        'with the domain\'s token (`verification.body`), so receiving the token proves the domain reaches this server, whatever the DNS records are. ' +
        'Answers 200 with the domain either way: `active` with `verifiedAt` when the check succeeded (the production site is then served on the domain and ' +
        'the project shows it as `customDomain`; audited as domain.verified), or still `pending` with `lastCheckError` saying what the check found (no answer, another server, a redirect...). ' +
        'An active domain is returned as it is. Test keys get 403.',
      params: DomainParamsSchema,
      response: { 200: dataEnvelope(DomainSchema), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await verifyDomain(app.ctx, req.auth, req.params.projectId, req.params.domainId) }));

  app.delete(`${path}/:domainId`, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Remove a custom domain',
      description:
        'The documentation stays reachable on its default address (`http://<slug>-docs.<sites domain>/`); visitors of the removed domain get a 404 page saying it is no longer ' +
        'connected to a documentation site. `customDomain` of the project is cleared (or becomes another active domain of the project). 404 once removed. Test keys get 403. Audited as domain.removed.',
      params: DomainParamsSchema,
      response: { 204: z.null().describe('Removed'), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    await deleteDomain(app.ctx, req.auth, req.params.projectId, req.params.domainId);
    return reply.code(204).send(null);
  });

  app.get('/tls/ask', {
    config: { public: true },
    schema: {
      tags,
      summary: 'May a certificate be issued for this host? (TLS on demand)',
      description:
        'For a TLS-terminating proxy that fetches certificates on demand (Caddy: `on_demand_tls { ask http://<quire>/v1/tls/ask }`; Caddy adds `?domain=<host>`). ' +
        'Answers 200 for an active custom domain, the production host `<slug>-docs.<sites domain>` of an existing project, and a preview host that has a deployment; ' +
        '404 `not_found` for anything else (pending or removed domains, unknown names), so certificates are never requested for made-up names. No key; rate limited per client IP like other public routes.',
      security: [],
      querystring: TlsAskQuerySchema,
      response: { 200: dataEnvelope(z.object({ domain: z.string() })), ...errorResponses(400, 404, 429) },
    },
  }, async (req) => {
    const domain = await certificateHost(app.ctx, req.query.domain);
    if (!domain) throw new ApiError('not_found', 'No certificate is issued for this host: it is not an active custom domain or a site host of this service.');
    return { data: { domain } };
  });
};
export default domainRoutes;
