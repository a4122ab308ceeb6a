/**
 * Authentication of API keys without an ORM round trip per request:
 * keys are resolved from an in-memory LRU by SHA-256 (the presented key is hashed on every
 * request, a few microseconds, so no raw key is ever kept); a miss reads one row through
 * `db.rows.apiKeys` (a raw better-sqlite3 prepared statement answered synchronously on SQLite, a
 * query on PostgreSQL); unknown keys are remembered briefly (negative cache);
 * `apiKey.revoked` events drop a key at once (so a rotated key is refused the moment rotate
 * returns, on every process when events cross processes), `organization.changed` drops an
 * organization's keys (new plan limits) and `reconnected` empties the cache (events may have been
 * missed); `last_used_at` is kept in memory and written in one batched transaction every
 * {@link FLUSH_INTERVAL_MS} and on close. One instance per app, built with the app context
 * (`ctx.apiKeys`, see context.ts).
 */
import { LRUCache } from 'lru-cache';
import type { KeyMode, Permission } from '@quire/shared/api/api-keys';
import type { AppContext } from '../context';
import type { ApiKeyRow } from '../db/repos/api-key-rows';
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
/** Most live keys kept in memory (least recently used dropped first; a dropped key is read again). */
const MAX_POSITIVE = 50_000;
/** Most unknown-key hashes remembered. */
const MAX_NEGATIVE = 10_000;

/** What the cache needs from the app (it is built before the app context exists). */
export type ApiKeyCacheDeps = Pick<AppContext, 'config' | 'db' | 'events' | 'log'>;

interface PositiveEntry {
  key: ResolvedKey;
  /** Epoch ms of the row read. */
  checkedAt: number;
}

/** The key cache of one app: `ctx.apiKeys`. */
export class ApiKeyCache {
  /** Live keys by SHA-256. */
  private readonly positive = new LRUCache<string, PositiveEntry>({ max: MAX_POSITIVE });
  /** Unknown or revoked hashes → epoch ms until which they are refused without a read. */
  private readonly negative = new LRUCache<string, number>({ max: MAX_NEGATIVE });
  private readonly lastUsed = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: ApiKeyCacheDeps) {
    deps.events.on('apiKey.revoked', ({ hash }) => this.invalidate(hash));
    deps.events.on('organization.changed', ({ orgId }) => this.forgetOrganization(orgId));
    // Revocations of other processes may have been missed while the event transport was down.
    deps.events.on('reconnected', () => this.clear());
  }

  /**
   * Resolves a full key presented by a client: from memory when cached, else after one row read
   * (synchronous on SQLite, a promise on PostgreSQL).
   * @returns the key, or the reason it is refused (unknown/revoked/malformed → `unknown`; past expiry → `expired`).
   */
  resolve(key: string, now = Date.now()): ResolvedKey | KeyRefusal | Promise<ResolvedKey | KeyRefusal> {
    const hash = hashApiKey(key);
    const entry = this.positive.get(hash);
    if (entry && now - entry.checkedAt <= POSITIVE_TTL_MS) return checkExpiry(entry.key, now);
    const until = this.negative.get(hash);
    if (until !== undefined && until > now) return 'unknown';
    const row = this.deps.db.rows.apiKeys.byHash(hash);
    return row instanceof Promise ? row.then((r) => this.loaded(hash, r, now)) : this.loaded(hash, row, now);
  }

  /** Caches a row just read (or remembers that there is none). */
  private loaded(hash: string, row: ApiKeyRow | undefined, now: number): ResolvedKey | KeyRefusal {
    // Revoked while the row was being read (a PostgreSQL read is not instantaneous): refuse.
    const until = this.negative.get(hash);
    if (!row || row.revokedAt !== null || (until !== undefined && until > Date.now())) {
      this.positive.delete(hash);
      this.remember(hash, now);
      return 'unknown';
    }
    const key = this.toResolved(row);
    this.positive.set(hash, { key, checkedAt: now });
    return checkExpiry(key, now);
  }

  /** Notes that a key was used now; written to the database by the next {@link flush}. */
  touch(keyId: string, now = Date.now()): void {
    this.lastUsed.set(keyId, now);
    if (!this.timer) {
      this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
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

  /** Forgets every cached key of an organization (its plan or limits changed); they are read again on next use. */
  forgetOrganization(orgId: string): void {
    const stale = [...this.positive.entries()].filter(([, entry]) => entry.key.orgId === orgId);
    for (const [hash] of stale) this.positive.delete(hash);
  }

  /** Forgets every cached key and every remembered unknown key; each is read again on next use. */
  clear(): void {
    this.positive.clear();
    this.negative.clear();
  }

  /** Writes the pending `lastUsedAt` values in one transaction. Safe to call any time; never throws (a failure is logged). */
  flush(): Promise<void> | void {
    if (this.lastUsed.size === 0) return;
    const pending = [...this.lastUsed];
    this.lastUsed.clear();
    const warn = (err: unknown) => this.deps.log.warn({ err }, 'could not record API key last use');
    try {
      const written = this.deps.db.rows.apiKeys.recordLastUse(pending);
      if (written instanceof Promise) return written.catch(warn);
    } catch (err) {
      warn(err);
    }
  }

  /** Stops the timer and flushes (on app close). */
  close(): Promise<void> | void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return this.flush();
  }

  private remember(hash: string, now: number): void {
    this.negative.set(hash, now + NEGATIVE_TTL_MS);
  }

  private toResolved(row: ApiKeyRow): ResolvedKey {
    return {
      keyId: row.id,
      orgId: row.orgId,
      userId: row.createdById,
      permissions: parsePermissions(row.permissions),
      projectId: row.projectId,
      mode: row.mode === 'test' ? 'test' : 'live',
      expiresAt: row.expiresAt,
      rateLimit: planLimits(row, this.deps.config).rateLimit,
    };
  }
}

function checkExpiry(key: ResolvedKey, now: number): ResolvedKey | 'expired' {
  return key.expiresAt !== null && key.expiresAt <= now ? 'expired' : key;
}
