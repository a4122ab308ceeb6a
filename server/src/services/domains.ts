/**
 * Custom domains of a project's production site (interface-spec.md "Domains"; decisions.md
 * sections 3, 4 and 6).
 *
 * - Adding one (`pending`) checks the host name (`@quire/shared/repo/host-name`, then the rules that
 *   need the configuration: not the sites domain or a name under it, not the API's host, not a
 *   `localhost` name) and that no other project of any organization has it (pending or active;
 *   the conflict never names that project). Audited `domain.added`.
 * - Verifying fetches `http://<domain>/.well-known/quire-domain-verification` through the outbound
 *   address policy (net/outbound.ts; decisions.md section 10) and expects the domain's token, which
 *   only this server's site layer answers (sites/custom-domain-pages.ts). Receiving it proves the
 *   domain's HTTP traffic reaches this installation, however DNS is set up (CNAME to the project's
 *   site host, A/AAAA records, a proxy). Success makes it `active`, sets `Project.customDomain`
 *   and audits `domain.verified`; a failure keeps it `pending` with `lastCheckError` saying why.
 * - Removing one marks the row `removed` (kept, so its visitors get the "no longer connected" page
 *   instead of the site), clears `Project.customDomain` (or moves it to another active domain of
 *   the project); the site stays on its default address. Audited `domain.removed`.
 *
 * Every change emits `project.changed`, on which site hosting reads the domains again
 * (sites/site-resolver.ts), in every process. Test keys (`sk_test_`) never change a production
 * site, so they cannot add, verify or remove domains (403).
 */
import { randomBytes } from 'node:crypto';
import { ApiError, invalidField } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import { DOMAIN_VERIFICATION_PATH, MAX_DOMAINS_PER_PROJECT, type CreateDomainBody, type Domain } from '@quire/shared/api/domains';
import { checkHostName } from '@quire/shared/repo/host-name';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import { lockKey } from '../db/locks';
import { apiBaseUrl, type Config } from '../env';
import type { RequestAuth } from '../access/request-auth';
import { sendOutbound, type Resolver } from '../net/outbound';
import { OutboundNetworkError, OutboundRefusedError } from '../net/errors';
import { hostName, parseSiteHost, siteHostName } from '../deployments/site-host';
import { recordAudit } from './audit';
import { getProjectForCaller, type ProjectRecord } from './projects';

/** A stored domain. */
export type DomainRow = Models.DomainModel;

/** The `User-Agent` of verification requests. */
export const VERIFICATION_USER_AGENT = 'Quire-Domain-Verification/1.0';

/** Longest wait for the verification answer, in ms. */
export const VERIFICATION_TIMEOUT_MS = 10_000;

/** Random bytes of a verification token (sent as base64url: 32 characters). */
const TOKEN_BYTES = 24;

/**
 * How the verification check connects. Production leaves it unset: names resolve through the
 * system (getaddrinfo) and the check uses port 80, the port an `http://` URL of the domain
 * reaches. Tests point a made-up name at a local server with `resolve` and `port`.
 */
export interface DomainCheckOptions {
  /** how the domain's name is resolved (default getaddrinfo) */
  resolve?: Resolver;
  /** TCP port the check connects to (default 80) */
  port?: number;
}

declare module '../context' {
  interface AppContext {
    /** Overrides of the custom-domain verification check (services/domains.ts); unset in production. */
    domainCheck?: DomainCheckOptions;
  }
}

/**
 * Host names of the API itself, lower case without port: `localhost`, `127.0.0.1`, `[::1]`,
 * `HOST`, the host of `QUIRE_PUBLIC_URL` (or `http://<host>:<port>`) and the sites domain itself.
 * They are never custom domains and never site hosts (sites/index.ts).
 */
export function apiHostNames(config: Config): string[] {
  return ['localhost', '127.0.0.1', '[::1]', config.host, hostName(new URL(apiBaseUrl(config)).host), config.sitesDomain.toLowerCase()];
}

/**
 * Why `name` (already through `checkHostName`) cannot be a custom domain of this installation,
 * or null: the sites domain or a name under it (those are Quire's own site hosts), an API host,
 * or a `localhost` name (RFC 6761: never reachable from elsewhere).
 */
function domainRefusal(config: Config, name: string): string | null {
  const sites = config.sitesDomain.toLowerCase();
  if (name === sites || name.endsWith(`.${sites}`)) return `must not be the service's sites domain ${sites} or a name under it; those are the default site addresses`;
  if (apiHostNames(config).includes(name)) return "must not be the API's own host name";
  if (name === 'localhost' || name.endsWith('.localhost')) return 'must not be a localhost name';
  return null;
}

/** The URL the check fetches: `http://<domain>/.well-known/quire-domain-verification` (with `:<port>` when not 80). */
export function verificationUrl(domain: string, port = 80): string {
  return `http://${domain}${port === 80 ? '' : `:${port}`}${DOMAIN_VERIFICATION_PATH}`;
}

/** The response form of a domain (never one that is removed). */
export function toDomainDto(config: Config, project: Pick<ProjectRecord, 'id' | 'slug'>, row: DomainRow): Domain {
  const siteHost = siteHostName(project.slug, config.sitesDomain);
  return {
    id: row.id,
    projectId: row.projectId,
    domain: row.domain,
    status: row.status === 'active' ? 'active' : 'pending',
    verification: {
      method: 'http',
      url: verificationUrl(row.domain),
      body: row.verificationToken,
      instructions:
        `Point ${row.domain} at this server (CNAME to ${siteHost} or an A/AAAA record), then POST /v1/projects/${project.id}/domains/${row.id}/verify. ` +
        `Quire then fetches ${verificationUrl(row.domain)} over plain HTTP (port 80, no redirect to HTTPS for that path) and expects the body above, which this server answers by itself.`,
    },
    createdAt: row.createdAt.toISOString(),
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    lastCheckAt: row.lastCheckAt?.toISOString() ?? null,
    lastCheckError: row.lastCheckError,
  };
}

/** Refuses test keys: a domain is an address of the production site. */
function refuseTestKey(auth: RequestAuth): void {
  if (auth.mode === 'test') throw new ApiError('forbidden', 'A test key never changes a production site, so it cannot add, verify or remove custom domains; use a live key.');
}

/**
 * Adds a custom domain to a project (201), `pending` until verified; audited `domain.added`.
 * @param body `domain` already normalized by `CreateDomainBodySchema` (host-name rule)
 * @throws ApiError not_found (project unknown or not the caller's); invalid_request with
 *   `details.field: "domain"` (the sites domain or under it, the API host, a localhost name);
 *   conflict when any project of the service already has the domain pending or active (without
 *   naming it), or past {@link MAX_DOMAINS_PER_PROJECT}; forbidden for test keys.
 */
export async function createDomain(ctx: AppContext, auth: RequestAuth, projectId: string, body: CreateDomainBody): Promise<Domain> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  refuseTestKey(auth);
  const domain = body.domain;
  const refusal = domainRefusal(ctx.config, domain);
  if (refusal) throw invalidField('domain', refusal);
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    // The uniqueness check and the insert as one step, also with several server processes (db/locks.ts).
    await lockKey(tx, ctx.db.provider, `domain:${domain}`);
    const taken = await tx.domain.findFirst({ where: { domain, status: { in: ['pending', 'active'] } }, select: { id: true, projectId: true } });
    if (taken?.projectId === projectId) {
      throw new ApiError('conflict', `The domain ${domain} is already added to this project (${taken.id}).`, { field: 'domain', issue: 'already exists', domainId: taken.id });
    }
    if (taken || (await tx.project.findFirst({ where: { customDomain: domain }, select: { id: true } }))) {
      throw new ApiError('conflict', `The domain ${domain} is already connected to another documentation site.`, { field: 'domain', issue: 'already exists' });
    }
    const count = await tx.domain.count({ where: { projectId, status: { in: ['pending', 'active'] } } });
    if (count >= MAX_DOMAINS_PER_PROJECT) {
      throw new ApiError('conflict', `A project may have at most ${MAX_DOMAINS_PER_PROJECT} custom domains; remove one first.`, { limit: MAX_DOMAINS_PER_PROJECT });
    }
    const created = await tx.domain.create({
      data: { id: newId('domain'), projectId, domain, status: 'pending', verificationToken: randomBytes(TOKEN_BYTES).toString('base64url') },
    });
    await recordAudit(tx, { orgId: project.orgId, projectId, auth, action: 'domain.added', resource: { type: 'domain', id: created.id, name: domain }, metadata: { domain } });
    return created;
  });
  // Site hosting reads the domains again, so the new one answers its verification token at once.
  ctx.events.emit('project.changed', { projectId, slug: project.slug });
  return toDomainDto(ctx.config, project, row);
}

/** A project's domains (pending and active), oldest first; not paginated (at most {@link MAX_DOMAINS_PER_PROJECT}). @throws ApiError not_found. */
export async function listDomains(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<Domain[]> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const rows = await ctx.db.prisma.domain.findMany({ where: { projectId, status: { in: ['pending', 'active'] } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map((row) => toDomainDto(ctx.config, project, row));
}

/** One domain of a project. @throws ApiError not_found (also once removed). */
export async function getDomain(ctx: AppContext, auth: RequestAuth, projectId: string, domainId: string): Promise<Domain> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  return toDomainDto(ctx.config, project, await findLiveDomain(ctx, projectId, domainId));
}

async function findLiveDomain(ctx: AppContext, projectId: string, domainId: string): Promise<DomainRow> {
  const row = await ctx.db.prisma.domain.findFirst({ where: { id: domainId, projectId, status: { in: ['pending', 'active'] } } });
  if (!row) throw new ApiError('not_found', `No domain ${domainId} in project ${projectId}.`);
  return row;
}

/**
 * Runs the verification check of a pending domain (200 either way; an active domain is returned
 * as it is, without a check). Success: `active`, `verifiedAt`, `Project.customDomain` = the domain,
 * audited `domain.verified`, site hosting serves the production site on it. Failure: still
 * `pending`, with `lastCheckAt` and `lastCheckError` (why, in words).
 * @throws ApiError not_found (project or domain, also once removed); forbidden for test keys.
 */
export async function verifyDomain(ctx: AppContext, auth: RequestAuth, projectId: string, domainId: string): Promise<Domain> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  refuseTestKey(auth);
  const row = await findLiveDomain(ctx, projectId, domainId);
  if (row.status === 'active') return toDomainDto(ctx.config, project, row);
  const error = await checkDomainReachesUs(ctx, row.domain, row.verificationToken);
  const now = new Date();
  const updated = await ctx.db.prisma.$transaction(async (tx) => {
    const data = error ? { lastCheckAt: now, lastCheckError: error } : { status: 'active', verifiedAt: now, lastCheckAt: now, lastCheckError: null };
    // Only while still pending: a removal or another verification during the check wins.
    const { count } = await tx.domain.updateMany({ where: { id: row.id, status: 'pending' }, data });
    const current = await tx.domain.findUnique({ where: { id: row.id } });
    if (!current || current.status === 'removed') throw new ApiError('not_found', `No domain ${domainId} in project ${projectId}.`);
    if (count === 1 && !error) {
      await tx.project.update({ where: { id: projectId }, data: { customDomain: row.domain } });
      await recordAudit(tx, { orgId: project.orgId, projectId, auth, action: 'domain.verified', resource: { type: 'domain', id: row.id, name: row.domain }, metadata: { domain: row.domain } });
    }
    return { current, activated: count === 1 && !error };
  });
  if (updated.activated) ctx.events.emit('project.changed', { projectId, slug: project.slug });
  return toDomainDto(ctx.config, project, updated.current);
}

/**
 * Fetches the domain's verification URL and compares the answer with `token`.
 * @returns null when the answer is the token (the domain reaches this server), else why not, in
 *   words a user can act on.
 */
async function checkDomainReachesUs(ctx: AppContext, domain: string, token: string): Promise<string | null> {
  const check = ctx.domainCheck ?? {};
  const url = verificationUrl(domain, check.port);
  try {
    const response = await sendOutbound(
      { url, method: 'GET', headers: { 'user-agent': VERIFICATION_USER_AGENT, accept: 'text/plain' }, body: '', timeoutMs: VERIFICATION_TIMEOUT_MS },
      { allowPrivateNetwork: ctx.config.allowPrivateNetwork },
      check.resolve ? { resolve: check.resolve } : {},
    );
    const { statusCode } = response;
    if (statusCode >= 300 && statusCode < 400) {
      return `${url} answered a redirect (HTTP ${statusCode}${response.headers.location ? ` to ${response.headers.location}` : ''}); this path must be answered over plain HTTP without a redirect (let the proxy pass it to Quire).`;
    }
    if (statusCode !== 200) return `${url} answered HTTP ${statusCode}, not this domain's verification token: the domain does not reach this Quire server yet. Point it here (CNAME or A/AAAA record) and try again.`;
    if (response.body.trim() !== token) return `${url} answered, but not with this domain's verification token: the domain reaches another server. Point it at this Quire server (CNAME or A/AAAA record) and try again.`;
    return null;
  } catch (err) {
    if (err instanceof OutboundRefusedError || err instanceof OutboundNetworkError) return `${url} could not be fetched: ${err.message}.`;
    throw err;
  }
}

/**
 * Removes a domain (204): the row becomes `removed` (its visitors get the "no longer connected"
 * page), `Project.customDomain` is cleared or moved to the project's most recently verified other
 * active domain; the site stays on its default address. Audited `domain.removed`.
 * @throws ApiError not_found (project or domain, also once removed); forbidden for test keys.
 */
export async function deleteDomain(ctx: AppContext, auth: RequestAuth, projectId: string, domainId: string): Promise<void> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  refuseTestKey(auth);
  await ctx.db.prisma.$transaction(async (tx) => {
    const row = await tx.domain.findFirst({ where: { id: domainId, projectId, status: { in: ['pending', 'active'] } } });
    if (!row) throw new ApiError('not_found', `No domain ${domainId} in project ${projectId}.`);
    const { count } = await tx.domain.updateMany({ where: { id: row.id, status: row.status }, data: { status: 'removed', removedAt: new Date() } });
    if (count === 0) throw new ApiError('not_found', `No domain ${domainId} in project ${projectId}.`);
    const current = await tx.project.findUniqueOrThrow({ where: { id: projectId }, select: { customDomain: true } });
    if (current.customDomain === row.domain) {
      const next = await tx.domain.findFirst({ where: { projectId, status: 'active' }, orderBy: [{ verifiedAt: 'desc' }, { id: 'desc' }], select: { domain: true } });
      await tx.project.update({ where: { id: projectId }, data: { customDomain: next?.domain ?? null } });
    }
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'domain.removed',
      resource: { type: 'domain', id: row.id, name: row.domain },
      metadata: { domain: row.domain, status: row.status },
    });
  });
  ctx.events.emit('project.changed', { projectId, slug: project.slug });
}

/**
 * Whether a TLS certificate may be issued for `name` (Caddy's `on_demand_tls ask`): an active
 * custom domain, the production host `<slug>-docs.<sitesDomain>` of an existing project, or the
 * host of a preview that has a deployment. Anything else (pending or removed domains, unknown
 * hosts, malformed names) is refused, so nobody can make the proxy request certificates for
 * made-up names.
 * @returns the host name (normalized by the host-name rule) when allowed, else null
 */
export async function certificateHost(ctx: AppContext, name: string): Promise<string | null> {
  const check = checkHostName(name);
  if (!check.ok) return null;
  const rows = ctx.db.rows.sites;
  const site = parseSiteHost(check.name, ctx.config.sitesDomain);
  let allowed: boolean;
  if (site === null) allowed = false;
  else if (site && !site.previewName) allowed = await rows.hasSlug(site.slug);
  else if (site) allowed = (await rows.newestBySlug(site.slug, 'preview', site.previewName)) !== undefined;
  else allowed = !domainRefusal(ctx.config, check.name) && (await rows.isActiveDomain(check.name));
  return allowed ? check.name : null;
}
