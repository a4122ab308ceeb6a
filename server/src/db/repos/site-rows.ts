/**
 * The rows site hosting reads to map a Host to a deployment (sites/site-resolver.ts), one
 * implementation per database: on SQLite raw better-sqlite3 prepared statements (synchronous, a
 * few microseconds); on PostgreSQL Prisma. Both run only on host-cache misses, deployment
 * switches, custom-domain changes and TLS certificate questions (`GET /v1/tls/ask`), so the ORM's
 * cost on PostgreSQL is not per request.
 *
 * "Newest" is the greatest `createdAt`, ties broken by insertion order (SQLite's rowid) or by id
 * (PostgreSQL, which has no insertion order); ties need two deployments of one channel in one ms.
 */
import type Database from 'better-sqlite3';
import type { PrismaClient } from '../generated/client';
import type { MaybePromise } from './api-key-rows';

/** A deployment as site hosting needs it. */
export interface DeploymentRow {
  id: string;
  projectId: string;
  /** storage folder name, relative to the data dir / bucket */
  dir: string;
  kind: 'production' | 'preview' | 'version';
  /** branch slug of a preview, label of a version; "" for production */
  previewName: string;
}

/**
 * A custom domain as site hosting needs it: a `Domain` row, or a project's `customDomain` (always
 * `active`; the domains service keeps it equal to one of the project's active rows).
 */
export interface DomainHostRow {
  /** lower-case host name without port or trailing dot */
  domain: string;
  projectId: string;
  status: 'pending' | 'active' | 'removed';
  /** what a pending domain answers at `/.well-known/quire-domain-verification` ("" for `customDomain` entries) */
  token: string;
}

/** Reads of deployments and custom domains. */
export interface SiteRows {
  /** The newest deployment of the project with slug `slug` on channel (`kind`, `previewName`). */
  newestBySlug(slug: string, kind: 'production' | 'preview', previewName: string): MaybePromise<DeploymentRow | undefined>;
  /** The newest production deployment of project `projectId`. */
  newestProduction(projectId: string): MaybePromise<DeploymentRow | undefined>;
  /** The newest deployment of the documentation version `label` of project `projectId` (channel kind `version`). */
  newestVersion(projectId: string, label: string): MaybePromise<DeploymentRow | undefined>;
  /** The newest deployment of each channel of project `projectId`. */
  currentOfProject(projectId: string): MaybePromise<DeploymentRow[]>;
  /** Every project with a custom domain. */
  customDomains(): MaybePromise<{ id: string; customDomain: string }[]>;
  /**
   * Every custom domain site hosting knows: every `Domain` row (pending, active and removed, so a
   * removed one gets its error page) followed by each project's `customDomain` as `active`.
   * Several entries may name one host; the reader decides which wins (sites/site-resolver.ts).
   */
  domainHosts(): MaybePromise<DomainHostRow[]>;
  /** Whether `domain` is an active custom domain (a `Domain` row or a project's `customDomain`); for TLS certificate requests. */
  isActiveDomain(domain: string): MaybePromise<boolean>;
  /** Whether a project with slug `slug` exists. */
  hasSlug(slug: string): MaybePromise<boolean>;
}

const COLUMNS = 'd.id, d.projectId, d.dir, d.kind, d.previewName';

/** {@link SiteRows} on a SQLite connection. */
export function sqliteSiteRows(sqlite: Database.Database): SiteRows {
  const newest = `ORDER BY d.createdAt DESC, d.rowid DESC LIMIT 1`;
  const bySlug = sqlite.prepare<[string, string, string], DeploymentRow>(
    `SELECT ${COLUMNS} FROM Project p JOIN Deployment d ON d.projectId = p.id
     WHERE p.slug = ? AND d.kind = ? AND d.previewName = ? ${newest}`,
  );
  const byProject = sqlite.prepare<[string], DeploymentRow>(
    `SELECT ${COLUMNS} FROM Deployment d WHERE d.projectId = ? AND d.kind = 'production' AND d.previewName = '' ${newest}`,
  );
  const byVersion = sqlite.prepare<[string, string], DeploymentRow>(
    `SELECT ${COLUMNS} FROM Deployment d WHERE d.projectId = ? AND d.kind = 'version' AND d.previewName = ? ${newest}`,
  );
  const current = sqlite.prepare<[string], DeploymentRow>(
    `SELECT ${COLUMNS} FROM Deployment d WHERE d.projectId = ? AND d.rowid = (
       SELECT e.rowid FROM Deployment e WHERE e.projectId = d.projectId AND e.kind = d.kind AND e.previewName = d.previewName
       ORDER BY e.createdAt DESC, e.rowid DESC LIMIT 1)`,
  );
  const domains = sqlite.prepare<[], { id: string; customDomain: string }>(`SELECT id, customDomain FROM Project WHERE customDomain IS NOT NULL`);
  const domainRows = sqlite.prepare<[], DomainHostRow>(`SELECT domain, projectId, status, verificationToken AS token FROM Domain`);
  const active = sqlite.prepare<[string, string], { one: number }>(
    `SELECT 1 AS one FROM Domain WHERE domain = ? AND status = 'active' UNION ALL SELECT 1 FROM Project WHERE customDomain = ? LIMIT 1`,
  );
  const slugRow = sqlite.prepare<[string], { one: number }>(`SELECT 1 AS one FROM Project WHERE slug = ?`);
  return {
    newestBySlug: (slug, kind, previewName) => bySlug.get(slug, kind, previewName),
    newestProduction: (projectId) => byProject.get(projectId),
    newestVersion: (projectId, label) => byVersion.get(projectId, label),
    currentOfProject: (projectId) => current.all(projectId),
    customDomains: () => domains.all(),
    domainHosts: () => [...domainRows.all(), ...domains.all().map((p) => projectDomain(p))],
    isActiveDomain: (domain) => active.get(domain, domain) !== undefined,
    hasSlug: (slug) => slugRow.get(slug) !== undefined,
  };
}

/** {@link SiteRows} through Prisma (PostgreSQL). */
export function prismaSiteRows(prisma: PrismaClient): SiteRows {
  const select = { id: true, projectId: true, dir: true, kind: true, previewName: true } as const;
  const newest = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
  const customDomains = async () =>
    (await prisma.project.findMany({ where: { customDomain: { not: null } }, select: { id: true, customDomain: true } })).map((p) => ({
      id: p.id,
      customDomain: p.customDomain!,
    }));
  return {
    newestBySlug: async (slug, kind, previewName) =>
      ((await prisma.deployment.findFirst({ where: { project: { slug }, kind, previewName }, orderBy: newest, select })) as DeploymentRow | null) ??
      undefined,
    newestProduction: async (projectId) =>
      ((await prisma.deployment.findFirst({ where: { projectId, kind: 'production', previewName: '' }, orderBy: newest, select })) as DeploymentRow | null) ??
      undefined,
    newestVersion: async (projectId, label) =>
      ((await prisma.deployment.findFirst({ where: { projectId, kind: 'version', previewName: label }, orderBy: newest, select })) as DeploymentRow | null) ??
      undefined,
    currentOfProject: async (projectId) =>
      (await prisma.deployment.findMany({ where: { projectId }, orderBy: newest, distinct: ['kind', 'previewName'], select })) as DeploymentRow[],
    customDomains,
    domainHosts: async () => {
      const [rows, projects] = await Promise.all([
        prisma.domain.findMany({ select: { domain: true, projectId: true, status: true, verificationToken: true } }),
        customDomains(),
      ]);
      return [
        ...rows.map((r) => ({ domain: r.domain, projectId: r.projectId, status: r.status as DomainHostRow['status'], token: r.verificationToken })),
        ...projects.map((p) => projectDomain(p)),
      ];
    },
    isActiveDomain: async (domain) =>
      (await prisma.domain.count({ where: { domain, status: 'active' }, take: 1 })) > 0 || (await prisma.project.count({ where: { customDomain: domain }, take: 1 })) > 0,
    hasSlug: async (slug) => (await prisma.project.count({ where: { slug }, take: 1 })) > 0,
  };
}

/** A project's `customDomain` as an active {@link DomainHostRow}. */
function projectDomain(p: { id: string; customDomain: string }): DomainHostRow {
  return { domain: p.customDomain, projectId: p.id, status: 'active', token: '' };
}

/** A deployment row now or later, `null` when there is none. */
export type MaybePromiseRow = DeploymentRow | null | Promise<DeploymentRow | null>;
