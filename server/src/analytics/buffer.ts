/**
 * The {@link AnalyticsRecorder} of a server process (`ctx.analytics`): counts added up in memory,
 * handed to the job queue as `analytics` batches (batch.ts) every {@link FLUSH_MS} or as soon as
 * {@link MAX_KEYS} distinct counts are pending, and written by whichever process takes the job
 * (jobs/analytics-plugin.ts). Recording is a few map operations: no promise, no hashing, no
 * database on the serving path.
 *
 * At flush time:
 * - counts of projects whose `settings.analyticsEnabled` is false (or that no longer exist) are
 *   dropped: nothing of them is written (interface-spec.md "Project": `analyticsEnabled`);
 * - visitors (address and user agent, held in memory only until then) become a hash with the
 *   salt of their UTC day (schema `AnalyticsSalt`: random, created once by whichever process needs it
 *   first, shared by every process; rows of past days are deleted), so a visitor is counted once a
 *   day and cannot be followed from one day to the next; no cookie is involved;
 * - a batch the queue refuses (Redis unreachable) is written directly, so a count is lost only when
 *   the database fails too (logged).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import type { JobQueue } from '../queue/job-queue';
import type { ProjectCache } from '../services/projects';
import { normaliseTopic } from '../services/content-gaps';
import type { AnalyticsBatch, BatchSearches, BatchViews, BatchVisitor } from '../queue/analytics-batch';
import { writeAnalyticsBatch } from './batch';
import type { AnalyticsRecorder, PageViewEvent, ReaderKind, SearchEvent } from './recorder';

/** How long counts are added up before they are handed on, in ms. */
export const FLUSH_MS = 2_000;
/** Distinct pending counts (views, visitors, searches) past which a batch is handed on at once. */
export const MAX_KEYS = 5_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Longest wait of {@link AnalyticsBuffer.flush} for a batch's job, in ms. */
const FLUSH_WAIT_MS = 60_000;

interface PendingView {
  projectId: string;
  hour: number;
  path: string;
  reader: ReaderKind;
  agent: string;
  count: number;
}
interface PendingVisitor {
  projectId: string;
  /** days since the epoch (UTC) */
  day: number;
  ip: string;
  userAgent: string;
  reader: ReaderKind;
}

/** What the recorder needs of the app's context. */
export interface AnalyticsBufferDeps {
  db: Db;
  jobs: JobQueue;
  projects: Pick<ProjectCache, 'get'>;
  log: FastifyBaseLogger;
}

/** `YYYY-MM-DD` of a day number. */
const dayString = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** See the module comment. One per app. */
export class AnalyticsBuffer implements AnalyticsRecorder {
  private views = new Map<string, PendingView>();
  private visitors = new Map<string, PendingVisitor>();
  private searches = new Map<string, BatchSearches>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly salts = new Map<string, Promise<string>>();

  constructor(private readonly deps: AnalyticsBufferDeps) {}

  pageView(view: PageViewEvent): void {
    if (this.closed) return;
    const now = Date.now();
    const hour = now - (now % HOUR_MS);
    const key = `${view.projectId}\0${hour}\0${view.path}\0${view.reader}\0${view.agent}`;
    const known = this.views.get(key);
    if (known) known.count++;
    else this.views.set(key, { projectId: view.projectId, hour, path: view.path, reader: view.reader, agent: view.agent, count: 1 });
    if (view.visitor) {
      const day = Math.floor(now / DAY_MS);
      const vkey = `${view.projectId}\0${day}\0${view.visitor.ip}\0${view.visitor.userAgent}`;
      if (!this.visitors.has(vkey)) {
        this.visitors.set(vkey, { projectId: view.projectId, day, ip: view.visitor.ip, userAgent: view.visitor.userAgent, reader: view.reader });
      }
    }
    this.schedule();
  }

  search(event: SearchEvent): void {
    if (this.closed) return;
    const query = normaliseTopic(event.query);
    if (query === '') return;
    const day = dayString(Math.floor(Date.now() / DAY_MS));
    const key = `${event.projectId}\0${day}\0${query}\0${event.source}`;
    const known = this.searches.get(key);
    const none = event.results === 0 ? 1 : 0;
    if (known) {
      known.count++;
      known.noResults += none;
    } else this.searches.set(key, { projectId: event.projectId, day, query, source: event.source, count: 1, noResults: none });
    this.schedule();
  }

  /** Hands on everything pending (see the module comment) and waits until every batch handed on so far is written. */
  async flush(): Promise<void> {
    this.handOn();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  /** Starts the flush timer, or hands on at once when too much is pending. */
  private schedule(): void {
    if (this.views.size + this.visitors.size + this.searches.size >= MAX_KEYS) this.handOn();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.handOn(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Takes what is pending and starts handing it on as one batch. */
  private handOn(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.views.size + this.visitors.size + this.searches.size === 0) return;
    const taken = { views: [...this.views.values()], visitors: [...this.visitors.values()], searches: [...this.searches.values()] };
    this.views = new Map();
    this.visitors = new Map();
    this.searches = new Map();
    const work = this.send(taken).catch((err: unknown) => this.deps.log.error({ err }, 'analytics counts could not be recorded'));
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Filters by project setting, hashes visitors, enqueues the batch and waits for its job. */
  private async send(taken: { views: PendingView[]; visitors: PendingVisitor[]; searches: BatchSearches[] }): Promise<void> {
    const enabled = new Map<string, boolean>();
    for (const id of new Set([...taken.views, ...taken.visitors, ...taken.searches].map((e) => e.projectId))) {
      const project = await this.deps.projects.get(id);
      enabled.set(id, project !== null && project.settings.analyticsEnabled !== false);
    }
    const views: BatchViews[] = taken.views
      .filter((v) => enabled.get(v.projectId))
      .map((v) => ({ projectId: v.projectId, hour: new Date(v.hour).toISOString(), path: v.path, reader: v.reader, agent: v.agent, count: v.count }));
    const visitors: BatchVisitor[] = [];
    for (const v of taken.visitors) {
      if (!enabled.get(v.projectId)) continue;
      const day = dayString(v.day);
      const salt = await this.saltOf(day);
      const visitor = createHash('sha256').update(`${salt}\0${v.projectId}\0${v.ip}\0${v.userAgent}`).digest().subarray(0, 16).toString('base64url');
      visitors.push({ projectId: v.projectId, day, visitor, reader: v.reader });
    }
    const searches = taken.searches.filter((s) => enabled.get(s.projectId));
    if (views.length + visitors.length + searches.length === 0) return;
    const batch: AnalyticsBatch = { batchId: randomUUID(), views, visitors, searches };
    try {
      await this.deps.jobs.enqueue('analytics', batch, { jobId: batch.batchId });
    } catch (err) {
      this.deps.log.warn({ err }, 'the analytics batch could not be queued; writing it directly');
      return writeAnalyticsBatch(this.deps, batch);
    }
    await this.written(batch.batchId);
  }

  /** Resolves once the job `batchId` has run (here or in another process), or after {@link FLUSH_WAIT_MS}. */
  private async written(batchId: string): Promise<void> {
    const until = Date.now() + FLUSH_WAIT_MS;
    for (let wait = 2; Date.now() < until; wait = Math.min(wait * 2, 100)) {
      const { state } = await this.deps.jobs.state('analytics', batchId);
      if (state === 'gone' || state === 'failed') return;
      await new Promise((r) => setTimeout(r, wait).unref());
    }
  }

  /**
   * The salt of a UTC day: the stored one, or a new random one stored now (a process losing the race
   * to store it reads the winner's). Storing a day's salt deletes the salts of the days before the day before.
   */
  private saltOf(day: string): Promise<string> {
    let salt = this.salts.get(day);
    if (!salt) {
      salt = this.loadSalt(day);
      salt.catch(() => this.salts.delete(day));
      if (this.salts.size > 2) this.salts.delete(this.salts.keys().next().value!);
      this.salts.set(day, salt);
    }
    return salt;
  }

  private async loadSalt(day: string): Promise<string> {
    const prisma = this.deps.db.prisma;
    const found = await prisma.analyticsSalt.findUnique({ where: { day } });
    if (found) return found.salt;
    try {
      const created = await prisma.analyticsSalt.create({ data: { day, salt: randomBytes(32).toString('base64url') } });
      // the day before keeps its salt a day longer: batches of visits just before midnight may still come
      await prisma.analyticsSalt.deleteMany({ where: { day: { lt: dayString(Date.parse(day) / DAY_MS - 1) } } });
      return created.salt;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return (await prisma.analyticsSalt.findUniqueOrThrow({ where: { day } })).salt;
    }
  }
}
