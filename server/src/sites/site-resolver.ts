import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { DeploymentRow, MaybePromiseRow } from '../db/repos/site-rows';
import type { EventBus } from '../events';
import { channelName, type DeploymentChannel, type DeploymentStore } from '../storage/index';
import { DeploymentSite } from './deployment-site';
import { SiteFileCache } from './file-cache';
import { hostName, parseSiteHost } from './host';

/** What a Host header resolves to: a deployment to serve, or `null` for a site host with nothing to serve. */
type Resolved = DeploymentSite | null;

/**
 * How often, in ms, a store with pointers has the pointers of served channels re-read: the
 * fallback that catches a switch whose `deployment.changed` never arrived (another process).
 */
export const POINTER_REFRESH_MS = 3000;

/** Host entries kept at most; past this the map is cleared (bounds memory against made-up host names). */
const MAX_HOSTS = 10_000;

/**
 * Maps a request's `Host` to the deployment it must be served from (decisions.md sections 3, 6):
 * `<slug>-docs.<sitesDomain>` is the newest production deployment of that project,
 * `<branch-slug>--<slug>-docs.<sitesDomain>` the newest preview deployment of that branch slug,
 * and a project's `customDomain` its production deployment. Any port.
 *
 * Hot path: one Map lookup by the raw Host header. Misses cost one read through `db.rows.sites`
 * (a raw SQLite query, no ORM; a query on PostgreSQL) and, for a deployment not loaded yet, one `DeploymentSite.load`. On `deployment.changed` the
 * host map is dropped, deployments no longer current are forgotten (their memory freed), and
 * the new current ones are loaded at once, so traffic swaps to the new build in one step.
 * On `project.changed` (slug, custom domain, deletion) the host map is dropped, and a deleted
 * project's deployments are forgotten.
 *
 * Files come from the deployment store (`ctx.deploymentStore`). A store with pointers (S3) serves
 * what each channel's pointer names (read once, then on `deployment.changed`, and re-read every
 * {@link POINTER_REFRESH_MS} as a fallback for a missed event), so a switch made by another process
 * is seen within a second through the event transport, and within a few seconds without it.
 *
 * Custom domains are known from one read of every project's `customDomain`, read again after
 * `project.changed`. On PostgreSQL that read is asynchronous: until it lands the previous domains
 * are used, so a new custom domain is served once the read finishes (milliseconds).
 */
export class SiteResolver {
  private readonly hosts = new Map<string, Resolved | Promise<Resolved>>();
  /** loaded deployments by `Deployment.dir` */
  private readonly sites = new Map<string, { projectId: string; loading: Promise<DeploymentSite | null> }>();
  /** what each served channel's pointer names (stores with pointers), by `<projectId>\0<channel>` */
  private readonly pointers = new Map<string, { channel: DeploymentChannel; dir: Promise<string | null> }>();
  private readonly refreshTimer: NodeJS.Timeout | undefined;
  private refreshing = false;
  private customDomains: Map<string, string> | undefined;
  /** the custom domains used while an asynchronous read of new ones runs (PostgreSQL) */
  private previousDomains: Map<string, string> | undefined;
  private domainsLoading: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly options: {
      /** where deployments are read from (`ctx.deploymentStore`) */
      store: DeploymentStore;
      sitesDomain: string;
      /** host names of the API itself (never served as a custom domain) */
      apiHosts: string[];
      log: FastifyBaseLogger;
    },
    events: EventBus,
    /** the in-memory files of every deployment served (per-project and total byte limits) */
    private readonly files = new SiteFileCache(),
  ) {
    if (options.store.hasPointers) {
      this.refreshTimer = setInterval(() => void this.refreshPointers(), POINTER_REFRESH_MS);
      this.refreshTimer.unref();
    }
    events.on('deployment.changed', ({ projectId }) => this.deploymentChanged(projectId));
    // Events sent while this process was disconnected from Redis are lost: read everything afresh.
    events.on('reconnected', () => {
      this.forgetHosts();
      if (this.options.store.hasPointers) void this.refreshPointers();
    });
    events.on('project.changed', ({ projectId, deleted }) => {
      this.forgetHosts();
      if (deleted) for (const [id, entry] of this.sites) if (entry.projectId === projectId) this.forget(id);
      if (deleted) for (const [key, entry] of this.pointers) if (entry.channel.projectId === projectId) this.pointers.delete(key);
    });
  }

  /** Host names resolve afresh (slugs and custom domains are read again from the database). */
  private forgetHosts(): void {
    this.hosts.clear();
    this.previousDomains = this.customDomains ?? this.previousDomains;
    this.customDomains = undefined;
    this.domainsLoading = undefined;
  }

  /** Stops re-reading pointers (app close). */
  close(): void {
    clearInterval(this.refreshTimer);
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
    const site = row instanceof Promise ? row.then((r) => (r ? this.site(r) : null)) : row ? this.site(row) : null;
    this.hosts.set(host, site);
    if (site) void site.then((s) => this.hosts.get(host) === site && this.hosts.set(host, s));
    return site;
  }

  /** The newest matching deployment row, `null` for a site host without one, `undefined` for a non-site host. */
  private lookup(name: string): MaybePromiseRow | undefined {
    const parsed = parseSiteHost(name, this.options.sitesDomain);
    if (parsed === null) return null;
    const rows = this.db.rows.sites;
    if (parsed) return orNull(rows.newestBySlug(parsed.slug, parsed.previewName ? 'preview' : 'production', parsed.previewName));
    const projectId = this.domainMap().get(name);
    if (projectId === undefined) return undefined;
    return orNull(rows.newestProduction(projectId));
  }

  /** Custom domain → project id; a custom domain never takes over the API's own host names. */
  private domainMap(): Map<string, string> {
    if (this.customDomains) return this.customDomains;
    const toMap = (list: { id: string; customDomain: string }[]) =>
      new Map(list.map((r) => [hostName(r.customDomain), r.id] as const).filter(([domain]) => !this.options.apiHosts.includes(domain)));
    if (!this.domainsLoading) {
      const list = this.db.rows.sites.customDomains();
      if (!(list instanceof Promise)) return (this.customDomains = toMap(list));
      const loading: Promise<void> = list.then(
        (l) => {
          if (this.domainsLoading === loading) this.customDomains = toMap(l);
        },
        (err: unknown) => {
          this.options.log.error({ err }, 'custom domains cannot be read');
          if (this.domainsLoading === loading) this.domainsLoading = undefined;
        },
      );
      this.domainsLoading = loading;
    }
    return this.previousDomains ?? new Map();
  }

  /**
   * The loaded deployment a row's channel serves (shared by every host naming it); `null` when it
   * cannot be loaded. Without pointers that is the row's own deployment; with pointers it is the
   * one the channel's pointer names (the row's while the channel has no pointer yet).
   */
  private site(row: DeploymentRow): Promise<DeploymentSite | null> {
    if (!this.options.store.hasPointers) return this.siteAt(row.dir, row.projectId);
    return this.pointed(row).then((dir) => this.siteAt(dir ?? row.dir, row.projectId));
  }

  /** The loaded deployment stored at `dir` (`Deployment.dir`), loading it through the store once. */
  private siteAt(dir: string, projectId: string): Promise<DeploymentSite | null> {
    const known = this.sites.get(dir);
    if (known) return known.loading;
    const loading = DeploymentSite.load(this.options.store.open(dir), this.files, projectId).catch((err: unknown) => {
      this.options.log.error({ err, projectId, dir }, 'deployment cannot be served');
      return null;
    });
    this.sites.set(dir, { projectId, loading });
    return loading;
  }

  /**
   * The `dir` a row's channel pointer names, remembered per channel; `fresh` reads it again.
   * A failed read keeps the previous answer (or `null`, which serves the row's own deployment).
   */
  private pointed(row: DeploymentRow, fresh = false): Promise<string | null> {
    const channel: DeploymentChannel = { projectId: row.projectId, kind: row.kind, previewName: row.previewName };
    const key = `${row.projectId}\0${channelName(channel)}`;
    const known = this.pointers.get(key);
    if (known && !fresh) return known.dir;
    const dir = this.options.store.pointer(channel).catch((err: unknown) => {
      this.options.log.error({ err, projectId: row.projectId, channel: channelName(channel) }, 'deployment pointer cannot be read');
      return known ? known.dir : null;
    });
    this.pointers.set(key, { channel, dir });
    return dir;
  }

  /** Re-reads the pointer of every served channel; a project whose pointer moved is switched. */
  private async refreshPointers(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const moved = new Set<string>();
      await Promise.all(
        [...this.pointers.values()].map(async ({ channel, dir }) => {
          const before = await dir;
          const now = await this.options.store.pointer(channel).catch(() => before);
          if (now !== before) moved.add(channel.projectId);
        }),
      );
      for (const projectId of moved) this.deploymentChanged(projectId);
    } finally {
      this.refreshing = false;
    }
  }

  /** Stops serving a deployment and frees its cached files. */
  private forget(dir: string): void {
    const entry = this.sites.get(dir);
    this.sites.delete(dir);
    void entry?.loading.then((site) => site?.dispose());
  }

  private deploymentChanged(projectId: string): void {
    this.hosts.clear();
    const current = this.db.rows.sites.currentOfProject(projectId);
    if (!(current instanceof Promise)) return this.switchTo(projectId, current);
    current.then(
      (rows) => this.switchTo(projectId, rows),
      (err: unknown) => this.options.log.error({ err, projectId }, 'current deployments cannot be read'),
    );
  }

  /** Serves `current` (the newest deployment of each channel) for a project and forgets the others. */
  private switchTo(projectId: string, current: DeploymentRow[]): void {
    const settle = (dirs: string[]) => {
      const keep = new Set(dirs);
      for (const [dir, entry] of this.sites) if (entry.projectId === projectId && !keep.has(dir)) this.forget(dir);
      for (const dir of keep) void this.siteAt(dir, projectId);
    };
    if (!this.options.store.hasPointers) return settle(current.map((r) => r.dir));
    // The new pointers are remembered before anything awaits, so a request from now on sees them.
    const dirs = current.map((row) => this.pointed(row, true).then((dir) => dir ?? row.dir));
    void Promise.all(dirs).then(settle);
  }
}

function orNull(row: DeploymentRow | undefined | Promise<DeploymentRow | undefined>): MaybePromiseRow {
  return row instanceof Promise ? row.then((r) => r ?? null) : (row ?? null);
}
