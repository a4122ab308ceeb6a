/**
 * The record of denied site requests behind `GET /access-logs` (decisions.md section 9:
 * "`/access-logs` records denials"). Serving never waits for it: {@link DenialLog.record} only
 * appends to a buffer in memory; the buffer is written in batches (one multi-row insert) once it
 * holds {@link DenialLogOptions.batchSize} denials or {@link DenialLogOptions.flushMs} after the
 * first one, and completely on app close. What is lost is at most the last second of denials on a
 * crash. A failed write keeps the batch and retries later; past {@link DenialLogOptions.maxBuffered}
 * waiting denials (a database down under a flood) the oldest are dropped and the count logged.
 */
import type { FastifyBaseLogger } from 'fastify';
import { newId } from '@quire/shared/ids';
import type { DenialReason } from '@quire/shared/api/access';
import { unstorableTextIssue } from '@quire/shared/text';
import type { Db } from '../db/client';
import { nextStamp } from '../db/stamps';

/** One denied request as the site gate reports it. */
export interface Denial {
  projectId: string;
  /** the Host header the request named */
  host: string;
  /** the page or file path requested */
  path: string;
  /** the visitor's canonical address (access/client-ip.ts) */
  ip: string;
  reason: DenialReason;
  /** the rule (`acr_`), allowlist (`ipl_`) or preview link (`pvl_`) that refused, when one did */
  ruleId?: string;
}

/** Tuning of a {@link DenialLog}. */
export interface DenialLogOptions {
  /** denials written per insert, and the buffer length that starts a write at once (default 200) */
  batchSize: number;
  /** longest wait, in ms, between a denial and the write holding it (default 1000) */
  flushMs: number;
  /** most denials kept waiting for a write; beyond, the oldest are dropped (default 50,000) */
  maxBuffered: number;
}

const DEFAULTS: DenialLogOptions = { batchSize: 200, flushMs: 1000, maxBuffered: 50_000 };

interface Row {
  id: string;
  projectId: string;
  host: string;
  path: string;
  ip: string;
  reason: string;
  ruleId: string | null;
  createdAt: Date;
}

/** Text a database stores (no NUL, no lone surrogate), cut to `max` characters: request values are never refused here. */
function storable(text: string, max: number): string {
  const cut = text.length > max ? text.slice(0, max) : text;
  if (unstorableTextIssue(cut) === null) return cut;
  return Buffer.from(cut.replaceAll('\u0000', '\uFFFD'), 'utf8').toString('utf8');
}

/** Buffered writer of denials; one per app (`ctx` through access/access-state.ts). */
export class DenialLog {
  private buffer: Row[] = [];
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private closed = false;
  private dropped = 0;
  private readonly options: DenialLogOptions;

  constructor(
    private readonly deps: { db: Db; log: FastifyBaseLogger },
    options: Partial<DenialLogOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Denials waiting to be written (not counting a batch being written). */
  get pending(): number {
    return this.buffer.length;
  }

  /**
   * Buffers one denial, timestamped now (strictly after every earlier stamp of this process,
   * db/stamps.ts, so "newest first" keeps the order requests were refused in). Never throws, never waits; after
   * {@link close} it is dropped (the database is closing).
   */
  record(denial: Denial): void {
    if (this.closed) return;
    this.buffer.push({
      id: newId('accessLog'),
      projectId: denial.projectId,
      host: storable(denial.host, 255),
      path: storable(denial.path, 2000),
      ip: storable(denial.ip, 100),
      reason: denial.reason,
      ruleId: denial.ruleId ?? null,
      createdAt: nextStamp(),
    });
    this.trim();
    if (this.buffer.length >= this.options.batchSize) void this.flush();
    else this.schedule(this.options.flushMs);
  }

  /**
   * Writes everything buffered so far (also what arrives while writing). Concurrent calls share
   * one drain.
   * @returns once the buffer is empty, or after a failed write (logged; the rows stay buffered and
   *   a retry is scheduled). Never rejects.
   */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  /** Stops taking denials and writes what is buffered (app close, before the database closes). */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length > 0) {
      this.deps.log.error({ lost: this.buffer.length }, 'denied requests could not be written to the access log before closing');
    }
  }

  /** Drops the oldest waiting denials beyond `maxBuffered`. */
  private trim(): void {
    const excess = this.buffer.length - this.options.maxBuffered;
    if (excess <= 0) return;
    this.buffer.splice(0, excess);
    this.dropped += excess;
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, delayMs);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    if (this.dropped > 0) {
      this.deps.log.warn({ dropped: this.dropped }, 'the access log dropped its oldest waiting denials (writes could not keep up)');
      this.dropped = 0;
    }
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.options.batchSize);
      try {
        await this.deps.db.prisma.accessLog.createMany({ data: batch });
      } catch (err) {
        this.buffer.unshift(...batch); // back in front: older than what arrived meanwhile
        this.trim();
        this.deps.log.warn({ err, waiting: this.buffer.length }, 'writing denied requests to the access log failed; retrying');
        if (!this.closed) this.schedule(this.options.flushMs * 5);
        return;
      }
    }
  }
}
