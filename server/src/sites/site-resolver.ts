import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { DeploymentRow, DomainHostRow, MaybePromiseRow } from '../db/repos/site-rows';
import type { EventBus } from '../events';
import { channelName, type DeploymentChannel, type DeploymentStore } from '../storage/index';
import { DeploymentSite } from './deployment-site';
import { SiteFileCache } from './file-cache';
import { hostName, parseSiteHost } from '../deployments/site-host';
import type { VersionLookup } from './version-routing';

/** What a Host header resolves to: a deployment to serve, or `null` for a site host with nothing to serve. */
type Resolved = DeploymentSite | null;

/**
 * What a custom domain that serves no site answers (decisions.md section 4; answered by
 * sites/custom-domain-pages.ts): a `pending` domain answers its verification token at
 * `/.well-known/quire-domain-verification` (and the plain 404 elsewhere), a `removed` one the page
 * "This domain is no longer connected to a documentation site" on every path.
 */
export class DomainNotice {
  constructor(
    readonly status: 'pending' | 'removed',
    /** the host name, lower case */
    readonly domain: string,
    /** the verification token of a pending domain ("" for a removed one) */
    readonly token: string,
  ) {}
}

/**
 * Where a request goes: `undefined` to the API, a {@link DomainNotice}, or a deployment (or a
 * promise of one) for `serveSite` (`null`: a site host with nothing to serve).
 */
export type HostRoute = Resolved | Promise<Resolved> | DomainNotice | undefined;

/**
 * A host that cannot be routed before the custom domains being read arrive (PostgreSQL, right
 * after a change): route the request once `settled` resolves (it never rejects; a failed read
 * routes to the API).
 */
export class DeferredHost {
  constructor(readonly settled: Promise<{ route: HostRoute }>) {}
}

/** Which entry wins when several name one host: an active domain, then a pending one, then a removed one. */
const STATUS_RANK: Record<DomainHostRow['status'], number> = { active: 3, pending: 2, removed: 1 };

/**
 * How often, in ms, a store with pointers has the pointers of served channels re-read: the
 * fallback that catches a switch whose `deployment.changed` never arrived (another process).
 */
export const POINTER_REFRESH_MS = 3000;

/** After a failed read of the custom domains, how long (ms) the previous ones are used before reading again. */
const DOMAINS_RETRY_MS = 5000;

/** Host entries kept at most; past this the map is cleared (bounds memory against made-up host names). */
const MAX_HOSTS = 10_000;

/**
 * Maps a request's `Host` to the deployment it must be served from (decisions.md sections 3, 6):
 * `<slug>-docs.<sitesDomain>` is the newest production deployment of that project,
 * `<branch-slug>--<slug>-docs.<sitesDomain>` the newest preview deployment of that branch slug,
 * and an active custom domain (a `Domain` row, or a project's `customDomain`) its production
 * deployment. A pending custom domain gets a {@link DomainNotice} carrying its verification token,
 * a removed one a notice for its error page. Any port.
 * Preview deployments are loaded as previews (their pages carry the preview banner, `DeploymentSite.load`).
 * Documentation version deployments (channel kind `version`) are found by {@link SiteResolver.version}
 * and loaded with their base path `/<label>`; version-routing.ts sends `/<label>/` paths of
 * a production site to them.
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
 * Custom domains are known from one read of every `Domain` row and every project's
 * `customDomain` (`db.rows.sites.domainHosts`), read again after `project.changed` (the domains
 * service emits it on every domain change). On PostgreSQL that read is asynchronous: until it
 * lands, a host that is neither a site host of the sites domain nor the API's waits for it
 * ({@link DeferredHost}; one query, milliseconds), so a domain added a moment ago answers its
 * verification token at once and one removed a moment ago is no longer served. A failed read is
 * logged and the previous domains stand in for {@link DOMAINS_RETRY_MS}.
 */
export class SiteResolver {
  private readonly hosts = new Map<string, Resolved | Promise<Resolved> | DomainNotice>();
  /** documentation version deployments by `<projectId>\0<label>` (see {@link version}); dropped with the host map */
  private readonly versionSites = new Map<string, Resolved | Promise<Resolved>>();
  /** loaded deployments by `Deployment.dir` */
  private readonly sites = new Map<string, { projectId: string; loading: Promise<DeploymentSite | null> }>();
  /** what each served channel's pointer names (stores with pointers), by `<projectId>\0<channel>` */
  private readonly pointers = new Map<string, { channel: DeploymentChannel; dir: Promise<string | null> }>();
  private readonly refreshTimer: NodeJS.Timeout | undefined;
  private refreshing = false;
  private customDomains: Map<string, DomainHostRow> | undefined;
  /** the custom domains of the previous read, standing in when a new read fails */
  private previousDomains: Map<string, DomainHostRow> | undefined;
  private domainsLoading: Promise<void> | undefined;
  /** when the last read of the custom domains failed (0: it did not); the previous ones stand in until {@link DOMAINS_RETRY_MS} later */
  private domainsFailedAt = 0;

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
    this.versionSites.clear();
    this.previousDomains = this.customDomains ?? this.previousDomains;
    this.customDomains = undefined;
    this.domainsLoading = undefined;
    this.domainsFailedAt = 0;
  }

  /** Stops re-reading pointers (app close). */
  close(): void {
    clearInterval(this.refreshTimer);
  }

  /**
   * Resolves a raw `Host` header value.
   * @returns `undefined` when the host is not a site host (the request belongs to the API);
   *   `null` for a site host with nothing deployed (or an unknown project); a {@link DomainNotice}
   *   for a pending or removed custom domain; else the deployment (or a promise of it); a
   *   {@link DeferredHost} when the answer waits for the custom domains being read.
   */
  resolve(host: string | undefined): HostRoute | DeferredHost {
    if (!host) return undefined;
    const hit = this.hosts.get(host);
    if (hit !== undefined) return hit;
    const name = hostName(host);
    const parsed = parseSiteHost(name, this.options.sitesDomain);
    if (parsed !== undefined) {
      const rows = this.db.rows.sites;
      const row = parsed === null ? null : orNull(rows.newestBySlug(parsed.slug, parsed.previewName ? 'preview' : 'production', parsed.previewName));
      return this.remember(host, this.siteOfRow(row));
    }
    if (this.options.apiHosts.includes(name)) return undefined;
    const entry = this.domainEntry(name);
    if (entry instanceof Promise) {
      return new DeferredHost(
        entry.then(() => {
          const route = this.resolve(host);
          return route instanceof DeferredHost ? route.settled : { route };
        }),
      );
    }
    if (entry === undefined) return undefined;
    if (entry.status !== 'active') return this.remember(host, new DomainNotice(entry.status, name, entry.token));
    return this.remember(host, this.siteOfRow(orNull(this.db.rows.sites.newestProduction(entry.projectId))));
  }

  /**
   * The live deployment of documentation version `label` of a project (the `version` channel,
   * interface-spec.md "Documentation versions"), loaded with base path `/<label>`; null when it has
   * none. Remembered like hosts (one read per label until the project's deployments change), so a
   * version's hot page costs a Map lookup more than a production page (version-routing.ts).
   */
  readonly version: VersionLookup = (projectId, label) => {
    const key = `${projectId}\0${label}`;
    const hit = this.versionSites.get(key);
    if (hit !== undefined) return hit;
    const site = this.siteOfRow(orNull(this.db.rows.sites.newestVersion(projectId, label)));
    if (this.versionSites.size >= MAX_HOSTS) this.versionSites.clear();
    this.versionSites.set(key, site);
    if (site instanceof Promise) void site.then((s) => this.versionSites.get(key) === site && this.versionSites.set(key, s));
    return site;
  };

  /** Keeps what `host` resolved to (a promise is replaced by its value once known). */
  private remember<T extends Resolved | Promise<Resolved> | DomainNotice>(host: string, route: T): T {
    if (this.hosts.size >= MAX_HOSTS) this.hosts.clear();
    this.hosts.set(host, route);
    if (route instanceof Promise) void route.then((s) => this.hosts.get(host) === route && this.hosts.set(host, s));
    return route;
  }

  /** The deployment a row (now or later) names; `null` without one. */
  private siteOfRow(row: MaybePromiseRow): Resolved | Promise<Resolved> {
    if (row instanceof Promise) return row.then((r) => (r ? this.site(r) : null));
    return row ? this.site(row) : null;
  }

  /**
   * The custom domain entry of a host name, `undefined` when it is none; a promise (settled when
   * the domains being read arrive) when that is not known yet.
   */
  private domainEntry(name: string): DomainHostRow | undefined | Promise<void> {
    const known = this.domainMap();
    return known instanceof Map ? known.get(name) : known;
  }

  /**
   * Custom domain → its winning entry (an active entry over a pending one over a removed one); a
   * custom domain never takes over the API's own host names. A promise while an asynchronous read
   * runs (PostgreSQL); it never rejects (a failed read is logged and leaves the previous domains).
   */
  private domainMap(): Map<string, DomainHostRow> | Promise<void> {
    if (this.customDomains && this.domainsFailedAt !== 0 && Date.now() - this.domainsFailedAt > DOMAINS_RETRY_MS) this.forgetHosts();
    if (this.customDomains) return this.customDomains;
    const toMap = (list: DomainHostRow[]) => {
      const map = new Map<string, DomainHostRow>();
      for (const row of list) {
        const domain = hostName(row.domain);
        if (this.options.apiHosts.includes(domain)) continue;
        const other = map.get(domain);
        if (!other || STATUS_RANK[row.status] > STATUS_RANK[other.status]) map.set(domain, row);
      }
      return map;
    };
    if (!this.domainsLoading) {
      const list = this.db.rows.sites.domainHosts();
      if (!(list instanceof Promise)) return (this.customDomains = toMap(list));
      const loading: Promise<void> = list.then(
        (l) => {
          if (this.domainsLoading !== loading) return;
          this.customDomains = toMap(l);
          this.domainsFailedAt = 0;
        },
        (err: unknown) => {
          this.options.log.error({ err }, 'custom domains cannot be read');
          if (this.domainsLoading !== loading) return;
          // The previous domains stand in (so waiting requests are routed) until a later read.
          this.customDomains = this.previousDomains ?? new Map();
          this.domainsFailedAt = Date.now();
        },
      );
      this.domainsLoading = loading;
    }
    return this.domainsLoading;
  }

  /**
   * The loaded deployment a row's channel serves (shared by every host naming it); `null` when it
   * cannot be loaded. Without pointers that is the row's own deployment; with pointers it is the
   * one the channel's pointer names (the row's while the channel has no pointer yet).
   */
  private site(row: DeploymentRow): Promise<DeploymentSite | null> {
    if (!this.options.store.hasPointers) return this.siteAt(row.dir, row);
    return this.pointed(row).then((dir) => this.siteAt(dir ?? row.dir, row));
  }

  /**
   * The loaded deployment stored at `dir` (`Deployment.dir`), loading it through the store once;
   * `channel` (the row naming it) says whose it is and whether it is a preview (banner, `DeploymentSite.load`).
   */
  private siteAt(dir: string, channel: Pick<DeploymentRow, 'projectId' | 'kind' | 'previewName'>): Promise<DeploymentSite | null> {
    const known = this.sites.get(dir);
    if (known) return known.loading;
    const { projectId } = channel;
    const preview = channel.kind === 'preview' ? { preview: channel.previewName } : channel.kind === 'version' ? { basePath: `/${channel.previewName}` } : {};
    const loading = DeploymentSite.load(this.options.store.open(dir), this.files, projectId, preview).catch((err: unknown) => {
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
    this.versionSites.clear();
    const current = this.db.rows.sites.currentOfProject(projectId);
    if (!(current instanceof Promise)) return this.switchTo(projectId, current);
    current.then(
      (rows) => this.switchTo(projectId, rows),
      (err: unknown) => this.options.log.error({ err, projectId }, 'current deployments cannot be read'),
    );
  }

  /** Serves `current` (the newest deployment of each channel) for a project and forgets the others. */
  private switchTo(projectId: string, current: DeploymentRow[]): void {
    const settle = (served: { dir: string; row: DeploymentRow }[]) => {
      const keep = new Set(served.map((s) => s.dir));
      for (const [dir, entry] of this.sites) if (entry.projectId === projectId && !keep.has(dir)) this.forget(dir);
      for (const { dir, row } of served) void this.siteAt(dir, row);
    };
    if (!this.options.store.hasPointers) return settle(current.map((row) => ({ dir: row.dir, row })));
    // The new pointers are remembered before anything awaits, so a request from now on sees them.
    const served = current.map((row) => this.pointed(row, true).then((dir) => ({ dir: dir ?? row.dir, row })));
    void Promise.all(served).then(settle);
  }
}

function orNull(row: DeploymentRow | undefined | Promise<DeploymentRow | undefined>): MaybePromiseRow {
  return row instanceof Promise ? row.then((r) => r ?? null) : (row ?? null);
}
