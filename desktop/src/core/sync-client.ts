/**
 * The desktop core's sync client (decisions.md section 9): pushes the outbox (outbox.ts) with the
 * server's `sync.push`, then pulls what changed with `sync.pull` into the review cache
 * (review-cache.ts), when someone is signed in and the server answers. It is the outbox's owner:
 * it sends, acknowledges, settles and dismisses items; the review actions (reviews.ts) only enqueue. It runs on start, shortly after
 * each local mutation ({@link SyncOptions.debounceMs}), every {@link SyncOptions.periodMs}, and at
 * once on `sync.now`; when the server cannot be reached it retries with backoff (1 s doubling to
 * 60 s). A mutation sent but not acknowledged (a crash, a lost answer) is sent again with the same
 * seq: the server answers its stored result and applies nothing twice.
 */
import type { SyncMutationType, SyncPullResult } from '@quire/shared/sync/mutations';
import { CoreError } from './core-error';
import type { Outbox, OutboxState } from './outbox';
import type { ReviewCache } from './review-cache';
import { isUnreachable, type ServerClient } from './server-client';
import type { LocalStore } from './store';

/** The most reviews the server's `sync.pull` returns at once (server/src/services/sync-pull.ts): a shorter page means caught up. */
const PULL_PAGE_SIZE = 100;

/** Timing of the sync client, in ms. `auto: false` runs only on {@link SyncClient.sync} / `sync.now` (tests). */
export interface SyncOptions {
  auto?: boolean;
  /** wait after a local mutation before pushing (default 300) */
  debounceMs?: number;
  /** time between syncs while all is well (default 15,000) */
  periodMs?: number;
  /** first retry after a failure (default 1,000), doubling up to maxBackoffMs (default 60,000) */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/** One outbox item as `sync.status` lists it (pending or refused; applied ones are gone). */
export interface SyncStatusItem {
  seq: number;
  type: SyncMutationType;
  summary: string;
  state: Extract<OutboxState, 'pending' | 'refused'>;
  /** the server's reason for a refused item */
  reason: string | null;
  /** how many times it was sent */
  attempts: number;
}

/**
 * What `sync.status` answers. `state`: `signed-out` (nobody signed in), `syncing` (a push/pull runs),
 * `offline` (the last attempt failed: the server could not be reached, or refused the request;
 * `lastError` says which), `synced` otherwise. `pending`: mutations waiting for the server.
 */
export interface SyncStatusView {
  state: 'synced' | 'syncing' | 'offline' | 'signed-out';
  pending: number;
  lastError: string | null;
  items: SyncStatusItem[];
}

/** What the sync client works on, given by the composition root (compose.ts). */
export interface SyncDeps {
  store: LocalStore;
  /** the durable outbox it pushes */
  outbox: Outbox;
  /** where pulled reviews go */
  cache: ReviewCache;
  /** a client of the signed-in session's server and its URL, or null when nobody is signed in */
  client(): { client: ServerClient; serverUrl: string } | null;
}

/** Pushes and pulls for one local store (made once by compose.ts); never throws from its timers. */
export class SyncClient {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  private lastError: string | null = null;
  /** when the last push/pull attempt ended (ms since the epoch), null before the first */
  private lastAttemptAt: number | null = null;
  /** the server the last attempt went to (a sign-in elsewhere makes the status stale) */
  private lastServerUrl: string | null = null;
  private stopped = false;
  private readonly opts: Required<SyncOptions>;
  private readonly store: LocalStore;
  private readonly outbox: Outbox;
  private readonly cache: ReviewCache;
  private readonly client: SyncDeps['client'];

  constructor(deps: SyncDeps, options: SyncOptions = {}) {
    this.store = deps.store;
    this.outbox = deps.outbox;
    this.cache = deps.cache;
    this.client = deps.client;
    this.opts = { auto: true, debounceMs: 300, periodMs: 15_000, minBackoffMs: 1_000, maxBackoffMs: 60_000, ...options };
  }

  /** Starts syncing in the background (at once, then on the timers) unless `auto` is off. */
  start(): void {
    if (this.opts.auto && !this.stopped) this.schedule(0);
  }

  /** Stops the timers (a sync under way finishes; its writes to a closed store are dropped). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** A local mutation was queued: sync after the debounce (unless waiting out a backoff; `sync.now` skips it). */
  notify(): void {
    if (!this.opts.auto || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.failures === 0) this.schedule(this.opts.debounceMs);
  }

  /** Syncs at once (a backoff is forgotten) and answers the status when done. */
  async now(): Promise<SyncStatusView> {
    this.failures = 0;
    await this.sync();
    return this.status();
  }

  /** Runs one push-then-pull (or joins the one running, which then runs once more). */
  sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
      this.scheduleNext();
    });
    return this.running;
  }

  /**
   * The status, after a sync when the background sync runs (`auto`) and none was tried within the
   * last period (so the first status after a start or a sign-in tells whether the server answers);
   * waits at most `waitMs` for it (a slow server shows as `syncing`).
   */
  async freshStatus(waitMs = 1000): Promise<SyncStatusView> {
    const session = this.store.db.open ? this.client() : null;
    const stale = this.lastAttemptAt === null || Date.now() - this.lastAttemptAt > this.opts.periodMs || session?.serverUrl !== this.lastServerUrl;
    if (this.opts.auto && !this.stopped && stale && session) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.sync(), new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
    }
    return this.status();
  }

  /**
   * Puts the refused item `seq` away (`sync.dismiss`).
   * @returns the status without it @throws NOT_FOUND when there is no refused item `seq`
   */
  dismiss(seq: number): SyncStatusView {
    if (!this.outbox.dismiss(seq)) throw new CoreError('NOT_FOUND', `There is no refused change number ${seq}.`);
    return this.status();
  }

  /** The status for the renderer (no network). */
  status(): SyncStatusView {
    if (!this.store.db.open) return { state: 'offline', pending: 0, lastError: 'The local store is closed.', items: [] };
    const signedIn = this.client() !== null;
    const outbox = this.outbox;
    const items = outbox.items(['pending', 'refused']).map((i) => ({
      seq: i.seq,
      type: i.type,
      summary: i.summary,
      state: i.state as SyncStatusItem['state'],
      reason: i.reason,
      attempts: i.attempts,
    }));
    const state = !signedIn ? 'signed-out' : this.running ? 'syncing' : this.failures > 0 ? 'offline' : 'synced';
    return { state, pending: outbox.pendingCount(), lastError: signedIn ? this.lastError : null, items };
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sync();
    }, ms);
    this.timer.unref?.();
  }

  private scheduleNext(): void {
    if (!this.opts.auto || this.stopped) return;
    if (!this.store.db.open) return this.stop();
    const delay = this.failures > 0 ? Math.min(this.opts.minBackoffMs * 2 ** (this.failures - 1), this.opts.maxBackoffMs) : this.opts.periodMs;
    this.schedule(delay);
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      await this.once();
    } while (this.again && !this.stopped && this.failures === 0);
  }

  private async once(): Promise<void> {
    if (!this.store.db.open) return this.stop();
    const session = this.client();
    if (!session) {
      this.failures = 0;
      this.lastError = null;
      return;
    }
    try {
      await this.push(session.client);
      await this.pull(session.client, session.serverUrl);
      this.failures = 0;
      this.lastError = null;
    } catch (err) {
      if (!this.store.db.open) return;
      this.failures += 1;
      this.lastError = isUnreachable(err) ? `The Quire server at ${session.serverUrl} cannot be reached.` : (err as Error).message || 'The server refused to sync.';
    } finally {
      this.lastAttemptAt = Date.now();
      this.lastServerUrl = session.serverUrl;
    }
  }

  /**
   * Pushes pending items batch by batch, in seq order, storing each answer.
   * @throws the client's error when the server cannot be reached or refuses the batch
   */
  private async push(client: ServerClient): Promise<void> {
    const outbox = this.outbox;
    for (;;) {
      const batch = outbox.nextBatch();
      if (batch.length === 0) return;
      outbox.markSent(batch.map((i) => i.seq));
      const answer = await client.sync.push.mutate({ clientId: outbox.clientId(), mutations: batch.map((i) => ({ seq: i.seq, mutation: i.mutation })) });
      if (outbox.acknowledge(answer).length === 0) {
        throw new Error(`The server has applied this computer's changes up to number ${answer.lastSeq} and did not take number ${batch[0]!.seq}.`);
      }
    }
  }

  /** Pulls the reviews changed since each project's cursor into the local review store; then settles the items acknowledged before. */
  private async pull(client: ServerClient, serverUrl: string): Promise<void> {
    const outbox = this.outbox;
    const settleUpTo = outbox.lastAnsweredSeq();
    for (const projectId of this.projectsToPull(serverUrl)) {
      let cursor = outbox.cursor(projectId);
      for (let page = 0; page < 100; page++) {
        let result: SyncPullResult;
        try {
          result = await client.sync.pull.query({ cursor, projectIds: [projectId] });
        } catch (err) {
          if (!isUnreachable(err) && (err as { data?: { code?: string } }).data?.code === 'NOT_FOUND') break; // a project gone or no longer visible
          throw err;
        }
        this.cache.applyPull(projectId, result);
        outbox.setCursor(projectId, result.cursor);
        if (result.reviews.length < PULL_PAGE_SIZE) break;
        cursor = result.cursor;
      }
    }
    outbox.settle(settleUpTo);
  }

  /** The projects whose reviews this computer keeps: the cached project list of the server, opened workspaces, and projects with queued work. */
  private projectsToPull(serverUrl: string): string[] {
    const rows = this.store.db
      .prepare('SELECT id FROM projects WHERE server_url = ? UNION SELECT project_id FROM workspaces UNION SELECT project_id FROM outbox WHERE state = ?')
      .all(serverUrl, 'pending') as { id: string }[];
    return [...new Set(rows.map((r) => r.id))];
  }
}
