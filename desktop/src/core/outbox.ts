import { randomUUID } from 'node:crypto';
import { SyncMutationSchema, SYNC_PUSH_MAX_MUTATIONS, type SyncMutation, type SyncMutationType, type SyncPushResult } from '@quire/shared/sync/mutations';
import type { LocalStore } from './store';

/**
 * The durable outbox of the desktop core (decisions.md section 9: mutations with the client's id
 * and a sequence number, applied by the server exactly once and in order). Rows live in the local
 * store's `outbox` table (store.ts), written with synchronous FULL before the caller answers, so a
 * mutation acknowledged to the renderer survives a crash or quit.
 *
 * States: `pending` (not acknowledged yet: sent again, with the same seq, until the server answers),
 * `done` (applied; `result` holds the server ids), `refused` (a rule refused it: `code` and `reason`
 * are the server's, shown on the item; the local text stays in `mutation`), `dismissed` (a refused
 * item the person put away).
 */
export type OutboxState = 'pending' | 'done' | 'refused' | 'dismissed';

/** The server ids an applied mutation made or touched (SyncMutationResult `result`). */
export interface OutboxResult {
  reviewId?: string;
  commentId?: string;
  status?: string;
}

/** One outbox row. `view`: what the local views show for it until the server's copy is pulled (reviews.ts). */
export interface OutboxItem {
  clientId: string;
  seq: number;
  type: SyncMutationType;
  projectId: string;
  /** the review it is about: a server id, or the localId of a review created offline */
  reviewRef: string;
  /** the id the client gave the object it creates (review.create, review.comment) */
  localId: string | null;
  mutation: SyncMutation;
  /** one line for the sync panel, e.g. `Approve "Fix typos"` */
  summary: string;
  view: unknown;
  state: OutboxState;
  /** how many times it was sent */
  attempts: number;
  /** the server's error code (conflict, forbidden, not_found, validation_error, …) of a refused item */
  code: string | null;
  /** the server's message of a refused item */
  reason: string | null;
  result: OutboxResult | null;
  /** true once a pull after its acknowledgement brought the server's copy (local views stop showing `view`) */
  settled: boolean;
  /** ISO 8601 */
  createdAt: string;
}

interface OutboxRow {
  client_id: string;
  seq: number;
  type: string;
  project_id: string;
  review_ref: string;
  local_id: string | null;
  mutation: string;
  summary: string;
  view: string | null;
  state: string;
  attempts: number;
  code: string | null;
  reason: string | null;
  result: string | null;
  settled: number;
  created_at: string;
}

function toItem(r: OutboxRow): OutboxItem {
  return {
    clientId: r.client_id,
    seq: r.seq,
    type: r.type as SyncMutationType,
    projectId: r.project_id,
    reviewRef: r.review_ref,
    localId: r.local_id,
    mutation: JSON.parse(r.mutation) as SyncMutation,
    summary: r.summary,
    view: r.view === null ? null : (JSON.parse(r.view) as unknown),
    state: r.state as OutboxState,
    attempts: r.attempts,
    code: r.code,
    reason: r.reason,
    result: r.result === null ? null : (JSON.parse(r.result) as OutboxResult),
    settled: r.settled === 1,
    createdAt: r.created_at,
  };
}

/** The reference to a review a mutation carries (`localId` for review.create). */
function reviewRefOf(m: SyncMutation): string {
  return m.type === 'review.create' ? m.localId : m.reviewId;
}

/**
 * The outbox over the local store. Synchronous (better-sqlite3); every write is one transaction.
 * Used by reviews.ts (enqueue) and sync-client.ts (batches and acknowledgements).
 */
export class Outbox {
  /**
   * @param account who the outbox works for (e.g. `<serverUrl> <userId>`): each account has its own
   *   client id, since the server binds a client id to the user who first pushed with it. Without it,
   *   one client id serves the whole installation.
   */
  constructor(
    private readonly store: LocalStore,
    private readonly account: () => string | null = () => null,
  ) {}

  private get db() {
    return this.store.db;
  }

  private stateValue(key: string): string | null {
    const row = this.db.prepare('SELECT value FROM sync_state WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  private setStateValue(key: string, value: string): void {
    this.db.prepare('INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** This installation's client id (of the current account): a UUID made on first use and kept in the store for good. */
  clientId(): string {
    const account = this.account();
    const key = account ? `client_id:${account}` : 'client_id';
    return this.db.transaction(() => {
      const existing = this.stateValue(key);
      if (existing) return existing;
      const id = randomUUID();
      this.setStateValue(key, id);
      return id;
    })();
  }

  /** The cursor of the last completed pull of a project (for the current account), or null before the first. */
  cursor(projectId: string): string | null {
    return this.stateValue(`pull_cursor:${this.account() ?? ''}:${projectId}`);
  }

  /** Keeps the cursor of a completed pull of a project. */
  setCursor(projectId: string, cursor: string): void {
    this.setStateValue(`pull_cursor:${this.account() ?? ''}:${projectId}`, cursor);
  }

  /**
   * Appends a mutation with the client's next sequence number (1, 2, 3, …), durably, in one
   * transaction. @throws Error naming the field when `mutation` does not satisfy SyncMutationSchema
   * (shared/src/sync/mutations.ts): the server would refuse the whole batch, so it never enters the outbox.
   */
  enqueue(mutation: SyncMutation, summary: string, view: unknown = null): OutboxItem {
    const parsed = SyncMutationSchema.safeParse(mutation);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`${issue.path.join('.') || 'mutation'}: ${issue.message}`);
    }
    const clientId = this.clientId();
    return this.db.transaction(() => {
      const seq = Number(this.stateValue(`last_seq:${clientId}`) ?? '0') + 1;
      this.setStateValue(`last_seq:${clientId}`, String(seq));
      const now = new Date().toISOString();
      const m = parsed.data;
      this.db
        .prepare(
          `INSERT INTO outbox (client_id, seq, type, project_id, review_ref, local_id, mutation, summary, view, state, attempts, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
        )
        .run(clientId, seq, m.type, m.projectId, reviewRefOf(m), 'localId' in m ? m.localId : null, JSON.stringify(m), summary, view === null ? null : JSON.stringify(view), now, now);
      return this.item(seq)!;
    })();
  }

  /** One item of this client, or null. */
  item(seq: number): OutboxItem | null {
    const row = this.db.prepare('SELECT * FROM outbox WHERE client_id = ? AND seq = ?').get(this.clientId(), seq) as OutboxRow | undefined;
    return row ? toItem(row) : null;
  }

  /** This client's items in sequence order, optionally of some states only. */
  items(states?: OutboxState[]): OutboxItem[] {
    const rows = (
      states
        ? this.db.prepare(`SELECT * FROM outbox WHERE client_id = ? AND state IN (${states.map(() => '?').join(',')}) ORDER BY seq`).all(this.clientId(), ...states)
        : this.db.prepare('SELECT * FROM outbox WHERE client_id = ? ORDER BY seq').all(this.clientId())
    ) as OutboxRow[];
    return rows.map(toItem);
  }

  /**
   * What local views overlay on the server state: pending and refused items, and applied ones whose
   * server copy has not been pulled yet, of one project (or all), in sequence order.
   */
  unsettled(projectId?: string): OutboxItem[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM outbox WHERE client_id = ? AND (state IN ('pending', 'refused') OR (state = 'done' AND settled = 0)) ${projectId ? 'AND project_id = ?' : ''} ORDER BY seq`,
      )
      .all(this.clientId(), ...(projectId ? [projectId] : [])) as OutboxRow[];
    return rows.map(toItem);
  }

  /** How many of this client's mutations wait for the server's answer. */
  pendingCount(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM outbox WHERE client_id = ? AND state = 'pending'").get(this.clientId()) as { n: number }).n;
  }

  /**
   * The next batch to push: this client's pending items from the lowest seq, at most `limit`
   * (SYNC_PUSH_MAX_MUTATIONS). A reply to a comment made offline carries the parent's server id once
   * known (rewritten durably before sending, so a resend after a crash is the same mutation); a reply
   * whose parent is in the same batch and not yet applied ends the batch before it.
   */
  nextBatch(limit = SYNC_PUSH_MAX_MUTATIONS): OutboxItem[] {
    const clientId = this.clientId();
    const rows = this.db.prepare("SELECT * FROM outbox WHERE client_id = ? AND state = 'pending' ORDER BY seq LIMIT ?").all(clientId, limit) as OutboxRow[];
    const batch: OutboxItem[] = [];
    const localInBatch = new Set<string>();
    for (const item of rows.map(toItem)) {
      const m = item.mutation;
      if (m.type === 'review.comment' && m.comment.parentId) {
        const mapped = this.serverId(m.comment.parentId);
        if (mapped) {
          m.comment.parentId = mapped;
          this.db.prepare('UPDATE outbox SET mutation = ? WHERE client_id = ? AND seq = ?').run(JSON.stringify(m), clientId, item.seq);
        } else if (localInBatch.has(m.comment.parentId)) {
          break;
        }
      }
      if (item.localId) localInBatch.add(item.localId);
      batch.push(item);
    }
    return batch;
  }

  /** Counts a send of these items (before the request leaves, so a crash still counts it). */
  markSent(seqs: number[]): void {
    const clientId = this.clientId();
    const now = new Date().toISOString();
    const stmt = this.db.prepare('UPDATE outbox SET attempts = attempts + 1, updated_at = ? WHERE client_id = ? AND seq = ?');
    this.db.transaction(() => seqs.forEach((s) => stmt.run(now, clientId, s)))();
  }

  /**
   * Stores the server's answers to a push in one transaction: applied items become `done` (with the
   * server ids; a created review's or comment's localId is mapped to its server id), refused ones
   * `refused` with the server's code and message. Items without an answer stay pending (sent again).
   * @returns the items that were answered
   */
  acknowledge(answer: SyncPushResult): OutboxItem[] {
    const clientId = this.clientId();
    const now = new Date().toISOString();
    const answered: OutboxItem[] = [];
    this.db.transaction(() => {
      for (const r of answer.results) {
        const item = this.item(r.seq);
        if (!item || item.state !== 'pending') continue;
        if (r.ok) {
          this.db.prepare("UPDATE outbox SET state = 'done', result = ?, code = NULL, reason = NULL, updated_at = ? WHERE client_id = ? AND seq = ?").run(JSON.stringify(r.result), now, clientId, r.seq);
          if (item.type === 'review.create' && item.localId && r.result.reviewId) this.mapId(item.localId, 'review', r.result.reviewId);
          if (item.type === 'review.comment' && item.localId && r.result.commentId) this.mapId(item.localId, 'comment', r.result.commentId);
        } else {
          this.db.prepare("UPDATE outbox SET state = 'refused', code = ?, reason = ?, updated_at = ? WHERE client_id = ? AND seq = ?").run(r.code, r.message, now, clientId, r.seq);
        }
        answered.push(this.item(r.seq)!);
      }
    })();
    return answered;
  }

  /** Marks applied items up to `seq` as settled: a pull that started after their acknowledgement brought the server's copy. */
  settle(uptoSeq: number): void {
    this.db.prepare("UPDATE outbox SET settled = 1 WHERE client_id = ? AND state = 'done' AND seq <= ?").run(this.clientId(), uptoSeq);
  }

  /** The highest seq of this client the server has answered (0 when none). */
  lastAnsweredSeq(): number {
    const row = this.db.prepare("SELECT MAX(seq) AS s FROM outbox WHERE client_id = ? AND state IN ('done', 'refused', 'dismissed')").get(this.clientId()) as { s: number | null };
    return row.s ?? 0;
  }

  /**
   * Puts a refused item away (it stops showing on the review and in the sync panel).
   * @returns false when there is no refused item `seq`
   */
  dismiss(seq: number): boolean {
    return this.db.prepare("UPDATE outbox SET state = 'dismissed', updated_at = ? WHERE client_id = ? AND seq = ? AND state = 'refused'").run(new Date().toISOString(), this.clientId(), seq).changes === 1;
  }

  /** Records the server id of an object created offline. */
  mapId(localId: string, kind: 'review' | 'comment', serverId: string): void {
    this.db.prepare('INSERT INTO local_ids (local_id, kind, server_id) VALUES (?, ?, ?) ON CONFLICT(local_id) DO UPDATE SET server_id = excluded.server_id').run(localId, kind, serverId);
  }

  /** The local id an object created offline had before it got server id `serverId`, or null (it was not created here). */
  localId(serverId: string): string | null {
    const row = this.db.prepare('SELECT local_id FROM local_ids WHERE server_id = ?').get(serverId) as { local_id: string } | undefined;
    return row?.local_id ?? null;
  }

  /** The server id of an object created offline, or null while it is not synced. */
  serverId(localId: string): string | null {
    const row = this.db.prepare('SELECT server_id FROM local_ids WHERE local_id = ?').get(localId) as { server_id: string } | undefined;
    return row?.server_id ?? null;
  }
}
