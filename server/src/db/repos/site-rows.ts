/**
 * The rows site hosting reads to map a Host to a deployment (sites/site-resolver.ts), one
 * implementation per database: on SQLite raw better-sqlite3 prepared statements (synchronous, a
 * few microseconds); on PostgreSQL Prisma. Both run only on host-cache misses and deployment
 * switches, so the ORM's cost on PostgreSQL is not per request.
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
  kind: 'production' | 'preview';
  /** branch slug of a preview; "" for production */
  previewName: string;
}

/** Reads of deployments and custom domains. */
export interface SiteRows {
  /** The newest deployment of the project with slug `slug` on channel (`kind`, `previewName`). */
  newestBySlug(slug: string, kind: 'production' | 'preview', previewName: string): MaybePromise<DeploymentRow | undefined>;
  /** The newest production deployment of project `projectId`. */
  newestProduction(projectId: string): MaybePromise<DeploymentRow | undefined>;
  /** The newest deployment of each channel of project `projectId`. */
  currentOfProject(projectId: string): MaybePromise<DeploymentRow[]>;
  /** Every project with a custom domain. */
  customDomains(): MaybePromise<{ id: string; customDomain: string }[]>;
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
  const current = sqlite.prepare<[string], DeploymentRow>(
    `SELECT ${COLUMNS} FROM Deployment d WHERE d.projectId = ? AND d.rowid = (
       SELECT e.rowid FROM Deployment e WHERE e.projectId = d.projectId AND e.kind = d.kind AND e.previewName = d.previewName
       ORDER BY e.createdAt DESC, e.rowid DESC LIMIT 1)`,
  );
  const domains = sqlite.prepare<[], { id: string; customDomain: string }>(`SELECT id, customDomain FROM Project WHERE customDomain IS NOT NULL`);
  return {
    newestBySlug: (slug, kind, previewName) => bySlug.get(slug, kind, previewName),
    newestProduction: (projectId) => byProject.get(projectId),
    currentOfProject: (projectId) => current.all(projectId),
    customDomains: () => domains.all(),
  };
}

/** {@link SiteRows} through Prisma (PostgreSQL). */
export function prismaSiteRows(prisma: PrismaClient): SiteRows {
  const select = { id: true, projectId: true, dir: true, kind: true, previewName: true } as const;
  const newest = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
  return {
    newestBySlug: async (slug, kind, previewName) =>
      ((await prisma.deployment.findFirst({ where: { project: { slug }, kind, previewName }, orderBy: newest, select })) as DeploymentRow | null) ??
      undefined,
    newestProduction: async (projectId) =>
      ((await prisma.deployment.findFirst({ where: { projectId, kind: 'production', previewName: '' }, orderBy: newest, select })) as DeploymentRow | null) ??
      undefined,
    currentOfProject: async (projectId) =>
      (await prisma.deployment.findMany({ where: { projectId }, orderBy: newest, distinct: ['kind', 'previewName'], select })) as DeploymentRow[],
    customDomains: async () =>
      (await prisma.project.findMany({ where: { customDomain: { not: null } }, select: { id: true, customDomain: true } })).map((p) => ({
        id: p.id,
        customDomain: p.customDomain!,
      })),
  };
}

/** A deployment row now or later, `null` when there is none. */
export type MaybePromiseRow = DeploymentRow | null | Promise<DeploymentRow | null>;
