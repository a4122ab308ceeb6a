import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/client';
import type { EventBus } from '../events';
import { DeploymentSite } from './deployment-site';
import { SiteFileCache } from './file-cache';
import { hostName, parseSiteHost } from './host';

/** What a Host header resolves to: a deployment to serve, or `null` for a site host with nothing to serve. */
type Resolved = DeploymentSite | null;

interface DeploymentRow {
  id: string;
  projectId: string;
  dir: string;
}

/** Host entries kept at most; past this the map is cleared (bounds memory against made-up host names). */
const MAX_HOSTS = 10_000;

/**
 * Maps a request's `Host` to the deployment it must be served from (decisions.md sections 3, 6):
 * `<slug>-docs.<sitesDomain>` is the newest production deployment of that project,
 * `<branch-slug>--<slug>-docs.<sitesDomain>` the newest preview deployment of that branch slug,
 * and a project's `customDomain` its production deployment. Any port.
 *
 * Hot path: one Map lookup by the raw Host header. Misses cost one raw SQLite query (no ORM)
 * and, for a deployment not loaded yet, one `DeploymentSite.load`. On `deployment.changed` the
 * host map is dropped, deployments no longer current are forgotten (their memory freed), and
 * the new current ones are loaded at once, so traffic swaps to the new build in one step.
 * On `project.changed` (slug, custom domain, deletion) the host map is dropped, and a deleted
 * project's deployments are forgotten.
 */
export class SiteResolver {
  private readonly hosts = new Map<string, Resolved | Promise<Resolved>>();
  private readonly sites = new Map<string, { projectId: string; loading: Promise<DeploymentSite | null> }>();
  private customDomains: Map<string, string> | undefined;
  private readonly bySlug: Statement<[string, string, string], DeploymentRow>;
  private readonly byProject: Statement<[string], DeploymentRow>;
  private readonly current: Statement<[string], DeploymentRow>;
  private readonly domains: Statement<[], { id: string; customDomain: string }>;

  constructor(
    private readonly db: Db,
    private readonly options: {
      dataDir: string;
      sitesDomain: string;
      /** host names of the API itself (never served as a custom domain) */
      apiHosts: string[];
      log: FastifyBaseLogger;
    },
    events: EventBus,
    /** the in-memory files of every deployment served (per-project and total byte limits) */
    private readonly files = new SiteFileCache(),
  ) {
    const newest = `ORDER BY d.createdAt DESC, d.rowid DESC LIMIT 1`;
    this.bySlug = db.sqlite.prepare(
      `SELECT d.id, d.projectId, d.dir FROM Project p JOIN Deployment d ON d.projectId = p.id
       WHERE p.slug = ? AND d.kind = ? AND d.previewName = ? ${newest}`,
    );
    this.byProject = db.sqlite.prepare(
      `SELECT d.id, d.projectId, d.dir FROM Deployment d WHERE d.projectId = ? AND d.kind = 'production' AND d.previewName = '' ${newest}`,
    );
    this.current = db.sqlite.prepare(
      `SELECT d.id, d.projectId, d.dir FROM Deployment d WHERE d.projectId = ? AND d.rowid = (
         SELECT e.rowid FROM Deployment e WHERE e.projectId = d.projectId AND e.kind = d.kind AND e.previewName = d.previewName
         ORDER BY e.createdAt DESC, e.rowid DESC LIMIT 1)`,
    );
    this.domains = db.sqlite.prepare(`SELECT id, customDomain FROM Project WHERE customDomain IS NOT NULL`);
    events.on('deployment.changed', ({ projectId }) => this.deploymentChanged(projectId));
    events.on('project.changed', ({ projectId, deleted }) => {
      this.hosts.clear();
      this.customDomains = undefined;
      if (deleted) for (const [id, entry] of this.sites) if (entry.projectId === projectId) this.forget(id);
    });
  }

  /**
   * Resolves a raw `Host` header value.
   * @returns `undefined` when the host is not a site host (the request belongs to the API);
   *   `null` for a site host with nothing deployed (or an unknown project); else the deployment.
   */
  resolve(host: string | undefined): Resolved | Promise<Resolved> | undefined {
    if (!host) return undefined;
    const hit = this.hosts.get(host);
    if (hit !== undefined) return hit;
    const row = this.lookup(hostName(host));
    if (row === undefined) return undefined;
    if (this.hosts.size >= MAX_HOSTS) this.hosts.clear();
    const site = row ? this.site(row) : null;
    this.hosts.set(host, site);
    if (site) void site.then((s) => this.hosts.get(host) === site && this.hosts.set(host, s));
    return site;
  }

  /** The newest matching deployment row, `null` for a site host without one, `undefined` for a non-site host. */
  private lookup(name: string): DeploymentRow | null | undefined {
    const parsed = parseSiteHost(name, this.options.sitesDomain);
    if (parsed === null) return null;
    if (parsed) {
      return this.bySlug.get(parsed.slug, parsed.previewName ? 'preview' : 'production', parsed.previewName) ?? null;
    }
    // A custom domain never takes over the API's own host names.
    this.customDomains ??= new Map(
      this.domains
        .all()
        .map((r) => [hostName(r.customDomain), r.id] as const)
        .filter(([domain]) => !this.options.apiHosts.includes(domain)),
    );
    const projectId = this.customDomains.get(name);
    if (projectId === undefined) return undefined;
    return this.byProject.get(projectId) ?? null;
  }

  /** The loaded deployment of a row (shared by every host naming it); `null` when it cannot be loaded. */
  private site(row: DeploymentRow): Promise<DeploymentSite | null> {
    const known = this.sites.get(row.id);
    if (known) return known.loading;
    const loading = DeploymentSite.load(path.resolve(this.options.dataDir, row.dir), this.files, row.projectId).catch((err: unknown) => {
      this.options.log.error({ err, deploymentId: row.id, dir: row.dir }, 'deployment cannot be served');
      return null;
    });
    this.sites.set(row.id, { projectId: row.projectId, loading });
    return loading;
  }

  /** Stops serving a deployment and frees its cached files. */
  private forget(deploymentId: string): void {
    const entry = this.sites.get(deploymentId);
    this.sites.delete(deploymentId);
    void entry?.loading.then((site) => site?.dispose());
  }

  private deploymentChanged(projectId: string): void {
    this.hosts.clear();
    const current = this.current.all(projectId);
    const keep = new Set(current.map((r) => r.id));
    for (const [id, entry] of this.sites) if (entry.projectId === projectId && !keep.has(id)) this.forget(id);
    for (const row of current) void this.site(row);
  }
}
