/**
 * Prometheus metrics of one app (prom-client; exposition format 0.0.4), on a registry of its own
 * (never prom-client's global one, so two apps in one process do not clash). Served by
 * plugins/metrics.ts at `GET /metrics`. Label values are bounded: route patterns (never raw
 * URLs), status classes, build outcomes, queue states.
 *
 * - `quire_http_requests_total{method,route,status_class}` and
 *   `quire_http_request_duration_seconds{method,route,status_class}`: API requests (site hosting
 *   and the operations endpoints excluded); `route` is the matched pattern, `unmatched` for 404s.
 * - `quire_builds_total{outcome}` and `quire_build_duration_seconds{outcome}`: builds this
 *   process ran to an outcome (`deployed`, `failed`, `cancelled`, `requeued`), time from start of
 *   building.
 * - `quire_site_requests_total{status_class}`: responses of site hosting (deployments served);
 *   `aborted` when the client left before a status was sent.
 * - `quire_queue_jobs{state}`: jobs waiting/running in the job queue, read at scrape time from the
 *   function given to {@link AppMetrics.setQueueDepth} (absent until one is).
 * - Node.js process metrics (`process_*`, `nodejs_*`) of prom-client's default collectors.
 */
import type { ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** How a build this process ran ended, as counted in `quire_builds_total`. */
export type BuildOutcome = 'deployed' | 'failed' | 'cancelled' | 'requeued';

/** Jobs per state (e.g. `{ waiting: 3, active: 1 }`), as a queue reports them. */
export type QueueDepth = Record<string, number>;

/** One API request series: its labels, requests answered so far, and its duration histogram. */
interface RequestSeries {
  labels: Record<'method' | 'route' | 'status_class', string>;
  count: number;
  duration: Histogram.Internal<'method' | 'route' | 'status_class'>;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** `2xx` for 204, and so on; `unknown` outside 100–599. */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? CLASSES[Math.floor(status / 100) - 1]! : 'unknown';
}

/** The metrics of one app; see the module documentation for each series. */
export class AppMetrics {
  /** The registry `/metrics` serializes. */
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'method' | 'route' | 'status_class'>;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  private readonly builds: Counter<'outcome'>;
  private readonly buildDuration: Histogram<'outcome'>;
  /** Site responses by status class, counted as plain numbers and copied into the counter when scraped. */
  private readonly siteByClass: Record<string, number> = Object.fromEntries([...CLASSES, 'unknown', 'aborted'].map((c) => [c, 0]));
  private queueDepth: (() => Promise<QueueDepth> | QueueDepth) | null = null;
  /**
   * Series of {@link observeRequest} by `method status route` (bounded by methods × statuses × route
   * patterns): the count is kept here and handed to the counter when scraped.
   */
  private readonly requestSeries = new Map<string, RequestSeries>();

  /** @param options.defaultMetrics collect Node.js process metrics too (default true). */
  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    const requestSeries = this.requestSeries;
    // Counted as a plain number per request (a prom-client increment hashes its labels every time) and
    // copied into the counter when scraped.
    this.httpRequests = new Counter({
      name: 'quire_http_requests_total',
      help: 'API requests answered, by method, route pattern and status class.',
      labelNames: ['method', 'route', 'status_class'],
      registers,
      collect() {
        this.reset();
        for (const series of requestSeries.values()) this.inc(series.labels, series.count);
      },
    });
    this.httpDuration = new Histogram({
      name: 'quire_http_request_duration_seconds',
      help: 'Time to answer API requests, in seconds, by method, route pattern and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.builds = new Counter({ name: 'quire_builds_total', help: 'Builds run to an outcome by this process.', labelNames: ['outcome'], registers });
    this.buildDuration = new Histogram({
      name: 'quire_build_duration_seconds',
      help: 'Duration of builds from start of building to their outcome, in seconds.',
      labelNames: ['outcome'],
      buckets: [1, 2.5, 5, 10, 30, 60, 120, 300, 600, 900, 1800],
      registers,
    });
    const siteByClass = this.siteByClass;
    // a site page is answered in a few microseconds: a prom-client increment (label hashing) would be a visible share of it
    new Counter({
      name: 'quire_site_requests_total',
      help: 'Responses of site hosting (deployments served), by status class.',
      labelNames: ['status_class'],
      registers,
      collect() {
        this.reset();
        for (const [status_class, n] of Object.entries(siteByClass)) if (n > 0) this.inc({ status_class }, n);
      },
    });
    const queueJobs: Gauge<'state'> = new Gauge({
      name: 'quire_queue_jobs',
      help: 'Jobs in the job queue by state, read when scraped.',
      labelNames: ['state'],
      registers,
      collect: async () => {
        queueJobs.reset();
        if (!this.queueDepth) return;
        const depth = await this.queueDepth();
        for (const [state, n] of Object.entries(depth)) queueJobs.set({ state }, n);
      },
    });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /**
   * Counts one answered API request; `route` is the matched pattern or `unmatched`, `seconds` its
   * duration. The labelled series are looked up once per (method, route, class) and kept (a
   * bounded set: routes are patterns), so a request costs no label hashing.
   */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels = { method: METHODS.has(method) ? method : 'OTHER', route, status_class: statusClass(status) };
      series = { labels, count: 0, duration: this.httpDuration.labels(labels) };
      this.requestSeries.set(key, series);
    }
    series.count++;
    series.duration.observe(seconds);
  }

  /** Counts one build this process ran to `outcome`, `seconds` after it started building. */
  observeBuild(outcome: BuildOutcome, seconds: number): void {
    this.builds.inc({ outcome });
    this.buildDuration.observe({ outcome }, seconds);
  }

  /**
   * Counts one site response by its status class: at once when its head is already sent, else
   * when the response closes (`aborted` if it never got a status out).
   */
  siteResponse(res: ServerResponse): void {
    if (res.headersSent) {
      this.siteByClass[statusClass(res.statusCode)]!++;
      return;
    }
    res.once('close', () => this.siteByClass[res.headersSent ? statusClass(res.statusCode) : 'aborted']!++);
  }

  /**
   * Plugs in the job queue's depth, read at each scrape (the queue calls this once it exists).
   * A failing read leaves the gauge empty for that scrape.
   */
  setQueueDepth(read: () => Promise<QueueDepth> | QueueDepth): void {
    this.queueDepth = async () => {
      try {
        return await read();
      } catch {
        return {};
      }
    };
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
