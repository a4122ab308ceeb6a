/**
 * The rows API-key authentication reads and writes (services/api-key-cache.ts), one
 * implementation per database: on SQLite raw better-sqlite3 prepared statements (a few
 * microseconds, answered synchronously, as the request hot path needs on a cache miss); on
 * PostgreSQL Prisma (a network round trip either way; the key cache makes it rare).
 */
import type Database from 'better-sqlite3';
import type { PrismaClient } from '../generated/client';

/** A key joined with its organization's plan fields. Times are epoch milliseconds. */
export interface ApiKeyRow {
  id: string;
  orgId: string;
  createdById: string | null;
  /** JSON string[] */
  permissions: string;
  projectId: string | null;
  mode: string;
  expiresAt: number | null;
  revokedAt: number | null;
  plan: string;
  rateLimit: number | null;
  projectLimit: number | null;
}

/** A value now (SQLite) or later (PostgreSQL). */
export type MaybePromise<T> = T | Promise<T>;

/** Reads and writes of {@link ApiKeyRow}s. */
export interface ApiKeyRows {
  /** The key whose SHA-256 hex is `hash`, revoked ones included; `undefined` when none. */
  byHash(hash: string): MaybePromise<ApiKeyRow | undefined>;
  /**
   * Records last uses (`[keyId, epoch ms]`), never moving a `lastUsedAt` backwards, in one transaction.
   * @throws the database error (nothing of the batch is written).
   */
  recordLastUse(uses: [keyId: string, at: number][]): MaybePromise<void>;
}

/** {@link ApiKeyRows} on a SQLite connection (dates stored as epoch ms, the adapter's `unixepoch-ms`). */
export function sqliteApiKeyRows(sqlite: Database.Database): ApiKeyRows {
  const lookup = sqlite.prepare<[string], ApiKeyRow>(
    `SELECT k.id, k.orgId, k.createdById, k.permissions, k.projectId, k.mode, k.expiresAt, k.revokedAt,
            o.plan, o.rateLimit, o.projectLimit
       FROM ApiKey k JOIN Organization o ON o.id = k.orgId
      WHERE k.hash = ?`,
  );
  const update = sqlite.prepare('UPDATE ApiKey SET lastUsedAt = ? WHERE id = ? AND (lastUsedAt IS NULL OR lastUsedAt < ?)');
  const record = sqlite.transaction((uses: [string, number][]) => {
    for (const [id, at] of uses) update.run(at, id, at);
  });
  return {
    byHash: (hash) => lookup.get(hash),
    recordLastUse: (uses) => {
      if (sqlite.open) record(uses);
    },
  };
}

/** {@link ApiKeyRows} through Prisma (PostgreSQL). */
export function prismaApiKeyRows(prisma: PrismaClient): ApiKeyRows {
  return {
    async byHash(hash) {
      const k = await prisma.apiKey.findUnique({ where: { hash }, include: { org: { select: { plan: true, rateLimit: true, projectLimit: true } } } });
      if (!k) return undefined;
      return {
        id: k.id,
        orgId: k.orgId,
        createdById: k.createdById,
        permissions: k.permissions,
        projectId: k.projectId,
        mode: k.mode,
        expiresAt: k.expiresAt?.getTime() ?? null,
        revokedAt: k.revokedAt?.getTime() ?? null,
        plan: k.org.plan,
        rateLimit: k.org.rateLimit,
        projectLimit: k.org.projectLimit,
      };
    },
    async recordLastUse(uses) {
      await prisma.$transaction(
        uses.map(([id, at]) =>
          prisma.apiKey.updateMany({ where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(at) } }] }, data: { lastUsedAt: new Date(at) } }),
        ),
      );
    },
  };
}
