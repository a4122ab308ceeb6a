/**
 * Authentication of API keys without an ORM round trip per request (brief H1 "Performance"):
 * keys are resolved from an in-memory map by SHA-256; a miss reads one row through the raw
 * better-sqlite3 prepared statement; unknown keys are remembered briefly (negative cache);
 * `apiKey.revoked` events drop a key at once (so a rotated key is refused the moment rotate
 * returns); `last_used_at` is kept in memory and written in one batched transaction every
 * {@link FLUSH_INTERVAL_MS} and on close.
 */
import type { Statement } from 'better-sqlite3';
import type { KeyMode, Permission } from '@quire/shared/api/api-keys';
import type { AppContext } from '../context';
import { hashApiKey, parsePermissions } from './api-keys';
import { planLimits } from './organizations';

/** A key as the auth plugin needs it. */
export interface ResolvedKey {
  keyId: string;
  orgId: string;
  userId: string | null;
  permissions: Permission[];
  projectId: string | null;
  mode: KeyMode;
  /** Epoch ms after which the key is refused; null = never expires. */
  expiresAt: number | null;
  /** The organization's requests per minute (plan limit). */
  rateLimit: number;
}

/** Why a key was refused (all answer 401; the message differs). */
export type KeyRefusal = 'unknown' | 'expired';

/** How long an unknown key is remembered as unknown. */
export const NEGATIVE_TTL_MS = 5_000;
/** How long a known key is trusted before its row is read again (catches changes by other processes, e.g. the CLI). */
export const POSITIVE_TTL_MS = 60_000;
/** Period of the batched `lastUsedAt` write. */
export const FLUSH_INTERVAL_MS = 30_000;
const MAX_NEGATIVE = 10_000;
/** Most presented keys whose SHA-256 is remembered (see {@link ApiKeyCache.hashOf}). */
const MAX_HASHES = 10_000;

interface KeyRow {
  id: string;
  orgId: string;
  createdById: string | null;
  permissions: string;
  projectId: string | null;
  mode: string;
  expiresAt: number | null;
  revokedAt: number | null;
  plan: string;
  rateLimit: number | null;
  projectLimit: number | null;
}

/** The per-process key cache; get it with {@link apiKeyCache}. */
export class ApiKeyCache {
  private readonly positive = new Map<string, { key: ResolvedKey; checkedAt: number }>();
  private readonly negative = new Map<string, number>();
  private readonly lastUsed = new Map<string, number>();
  /** SHA-256 of keys that resolved to a live key, so repeat callers skip the hash; cleared when full. */
  private readonly hashes = new Map<string, string>();
  private readonly lookup: Statement<[string], KeyRow>;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: AppContext) {
    this.lookup = ctx.db.sqlite.prepare(
      `SELECT k.id, k.orgId, k.createdById, k.permissions, k.projectId, k.mode, k.expiresAt, k.revokedAt,
              o.plan, o.rateLimit, o.projectLimit
         FROM ApiKey k JOIN Organization o ON o.id = k.orgId
        WHERE k.hash = ?`,
    );
    ctx.events.on('apiKey.revoked', ({ hash }) => this.invalidate(hash));
  }

  /**
   * Resolves a full key presented by a client.
   * @returns the key, or the reason it is refused (unknown/revoked/malformed → `unknown`; past expiry → `expired`).
   */
  resolve(key: string, now = Date.now()): ResolvedKey | KeyRefusal {
    const hash = this.hashOf(key);
    let entry = this.positive.get(hash);
    if (!entry || now - entry.checkedAt > POSITIVE_TTL_MS) {
      const until = this.negative.get(hash);
      if (until !== undefined && until > now) return 'unknown';
      const row = this.lookup.get(hash);
      if (!row || row.revokedAt !== null) {
        this.positive.delete(hash);
        this.remember(hash, now);
        return 'unknown';
      }
      entry = { key: this.toResolved(row), checkedAt: now };
      this.positive.set(hash, entry);
      if (this.hashes.size >= MAX_HASHES) this.hashes.clear();
      this.hashes.set(key, hash);
    }
    if (entry.key.expiresAt !== null && entry.key.expiresAt <= now) return 'expired';
    return entry.key;
  }

  /**
   * The SHA-256 of a presented key, remembered for keys that resolved to a live key. Only the hash
   * is memoized: every request still looks the hash up in the positive cache, which revocation
   * empties at once, so a revoked key is refused as before.
   */
  private hashOf(key: string): string {
    return this.hashes.get(key) ?? hashApiKey(key);
  }

  /** Notes that a key was used now; written to the database by the next {@link flush}. */
  touch(keyId: string, now = Date.now()): void {
    this.lastUsed.set(keyId, now);
    if (!this.timer) {
      this.timer = setInterval(() => this.flush(), FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** The in-memory last use of a key not yet flushed, if any. */
  lastUsedAt(keyId: string): Date | null {
    const t = this.lastUsed.get(keyId);
    return t === undefined ? null : new Date(t);
  }

  /** Forgets a key at once (revoked, rotated or deleted) and refuses it from now on. */
  invalidate(hash: string): void {
    this.positive.delete(hash);
    this.remember(hash, Date.now());
  }

  /** Writes the pending `lastUsedAt` values in one transaction. Safe to call any time. */
  flush(): void {
    if (this.lastUsed.size === 0 || !this.ctx.db.sqlite.open) return;
    const pending = [...this.lastUsed];
    this.lastUsed.clear();
    const update = this.ctx.db.sqlite.prepare('UPDATE ApiKey SET lastUsedAt = ? WHERE id = ? AND (lastUsedAt IS NULL OR lastUsedAt < ?)');
    try {
      this.ctx.db.sqlite.transaction(() => {
        for (const [id, at] of pending) update.run(at, id, at);
      })();
    } catch (err) {
      this.ctx.log.warn({ err }, 'could not record API key last use');
    }
  }

  /** Stops the timer and flushes (on app close). */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }

  private remember(hash: string, now: number): void {
    if (this.negative.size >= MAX_NEGATIVE) this.negative.clear();
    this.negative.set(hash, now + NEGATIVE_TTL_MS);
  }

  private toResolved(row: KeyRow): ResolvedKey {
    return {
      keyId: row.id,
      orgId: row.orgId,
      userId: row.createdById,
      permissions: parsePermissions(row.permissions),
      projectId: row.projectId,
      mode: row.mode === 'test' ? 'test' : 'live',
      expiresAt: row.expiresAt,
      rateLimit: planLimits(row, this.ctx.config).rateLimit,
    };
  }
}

const caches = new WeakMap<AppContext, ApiKeyCache>();

/** The key cache of one app (created on first use, subscribed to its event bus). */
export function apiKeyCache(ctx: AppContext): ApiKeyCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new ApiKeyCache(ctx);
    caches.set(ctx, cache);
  }
  return cache;
}
