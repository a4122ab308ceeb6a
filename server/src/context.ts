import type { FastifyBaseLogger } from 'fastify';
import { createAudienceTokenCache, type AudienceTokenCache } from './services/audience-tokens';
import { BuildStateMemory } from './builder/build-state';
import { AccessState } from './access/access-state';
import type { Config } from './env';
import type { Db } from './db/client';
import type { Redis } from 'ioredis';
import { EventBus } from './events';
import { RedisEventTransport } from './events/redis-transport';
import { openRedis } from './redis';
import { ApiKeyCache } from './services/api-key-cache';
import { AUTH_FAILURE_LIMIT, AuthFailures } from './services/auth-failures';
import { ProjectCache } from './services/projects';
import { SignInThrottle } from './services/sign-in-throttle';
import { FailureThrottle, MemoryFailureCounts, type FailureCountStore } from './services/failure-throttle';
import { RedisFailureCounts } from './services/redis-failure-counts';
import { PREVIEW_PASSWORD_LIMITS, type PreviewPasswordThrottle } from './access/preview-links';
import { RateLimiter, type RateLimitStore } from './services/rate-limiter';
import { RedisRateLimitStore } from './services/redis-rate-limiter';
import { createDeploymentStore, type DeploymentStore } from './storage/index';
import { Readiness } from './ops/readiness';
import { AppMetrics } from './ops/metrics';
import { createJobQueue } from './queue/create-job-queue';
import type { JobQueue } from './queue/job-queue';
import { RequestScope, scopedLogger } from './ops/request-scope';
import { LiveStreams } from './http/live-streams';
import { createSearchState, type SearchState } from './search/search-state';
import type { AnalyticsRecorder } from './analytics/recorder';
import { AnalyticsBuffer } from './analytics/buffer';
import { SiteOriginCache } from './http/site-cors';
import { KeyedLock } from './ops/keyed-lock';
import { DeployedInventories } from './services/deployed-site';
import { ReviewReports } from './services/review-report';
import { BuildRunner } from './jobs/build-runner';

/**
 * What every part of one server process shares: configuration, database handles, the event bus,
 * the logger and the in-memory state that must be one per app (caches, counters). Built once by
 * `buildApp` (through {@link createAppContext}) and decorated on the Fastify instance as `app.ctx`.
 * Services take it (or the parts they need) as their first argument.
 */
export interface AppContext {
  config: Config;
  db: Db;
  /** Events between services and caches; across processes through Redis pub/sub with REDIS_URL (events.ts). */
  events: EventBus;
  /** The app's logger; inside a request it writes through the request's logger (its lines carry `reqId`; ops/request-scope.ts). */
  log: FastifyBaseLogger;
  /** The request being served, for {@link AppContext.log} (the request-id plugin enters it). */
  requestScope: RequestScope;
  /** The command connection to REDIS_URL (events published, rate-limit counters), or null without Redis (redis.ts). */
  redis: Redis | null;
  /** Per-minute API request counters: in memory, or in Redis shared by every process with REDIS_URL (plugins/rate-limit.ts). */
  rateLimits: RateLimitStore;
  /** API keys by SHA-256, for authentication without an ORM round trip (services/api-key-cache.ts). */
  apiKeys: ApiKeyCache;
  /** Projects by id and their response form (services/projects.ts). */
  projects: ProjectCache;
  /** Failed-password counters of the throttles below: in memory, or in Redis shared by every process with REDIS_URL (services/failure-throttle.ts). */
  failureCounts: FailureCountStore;
  /** Failed sign-ins per e-mail and per IP, counted in `failureCounts` (services/sign-in-throttle.ts). */
  signInThrottle: SignInThrottle;
  /** Wrong preview-link passwords per link and per IP, counted in `failureCounts` (access/preview-links.ts). */
  previewPasswordThrottle: PreviewPasswordThrottle;
  /** Refused keys per client IP, counted in `rateLimits` (shared with REDIS_URL; services/auth-failures.ts). */
  authFailures: AuthFailures;
  /** Where deployments are published and served from: local disk or an S3 bucket (storage/index.ts). */
  deploymentStore: DeploymentStore;
  /** Named checks of `GET /readyz` (ops/readiness.ts); each part that owns a dependency registers one, e.g. `queue`. */
  readiness: Readiness;
  /** This app's Prometheus registry and series (ops/metrics.ts); the job queue plugs in its depth with `setQueueDepth`. */
  metrics: AppMetrics;
  /** Background jobs (builds): in-process, or BullMQ shared by every process with REDIS_URL (queue/job-queue.ts); closed by `buildApp`. */
  jobs: JobQueue;
  /** Audience token verification: project keys, profiles and token rows in memory (services/audience-tokens.ts). */
  audienceTokens: AudienceTokenCache;
  /** What the builds this process ran last left for incremental builds (builder/build-state.ts); never shared between processes. */
  buildStates: BuildStateMemory;
  /**
   * Access control: compiled access rules and IP allowlists per project, the buffered denial log, trusted proxies
   * (access/access-state.ts); closed by `buildApp` before the database.
   */
  access: AccessState;
  /** Search: loaded indexes (LRU), reindex generations, default version labels, content-gap writes (search/search-state.ts). */
  search: SearchState;
  /** Page views, searches and agent traffic: buffered, written in batches through `jobs` (analytics/recorder.ts); closed by `buildApp`. */
  analytics: AnalyticsRecorder;
  /** The site origins of projects, for CORS on the public routes a site calls (http/site-cors.ts). */
  siteOrigins: SiteOriginCache;
  /** Connections holding a long-lived event stream (tRPC subscriptions), cut by `buildApp` when the app closes (http/live-streams.ts). */
  liveStreams: LiveStreams;
  /**
   * In-process locks by key (ops/keyed-lock.ts): a sync client's pushes one at a time (`sync:<clientId>`,
   * services/sync.ts), a project's review merges one at a time (`merge:<projectId>`, services/reviews.ts,
   * which also holds the database's session lock of that key so other processes wait too).
   */
  locks: KeyedLock;
  /** Page inventories of published production deployments, by deployment directory, for link checks (services/deployed-site.ts). */
  deployedInventories: DeployedInventories;
  /** Pre-merge reports of reviews, by review, revision, base commit and lint options (services/review-report.ts). */
  reviewReports: ReviewReports;
  /**
   * The build runner (jobs/build-runner.ts): handler of `build` and `approval` jobs, and the one way to cancel a build (REST and tRPC alike).
   * Always present; the jobs plugin (jobs/index.ts) configures it, starts it when the app works jobs and stops it before the database closes.
   */
  buildRunner: BuildRunner;
}

/**
 * Builds the context of one app from its configuration, open database and logger: a new event bus,
 * an API-key cache subscribed to it (it prepares a statement, so `db` must be open) and empty
 * counters, the deployment store the configuration names (nothing contacted yet) and the build
 * runner (not started). Nothing is shared between two contexts. With REDIS_URL it opens the Redis connections at once (events,
 * rate-limit counters): await `ctx.events.ready()` before serving and, on shutdown, close with
 * `ctx.events.close()` then `closeRedis(ctx.redis)` (as `buildApp` does).
 */
export function createAppContext(given: { config: Config; db: Db; log: FastifyBaseLogger }): AppContext {
  const requestScope = new RequestScope();
  const base = { ...given, log: scopedLogger(given.log, requestScope), requestScope };
  const { redisUrl, queuePrefix } = base.config;
  const redis = redisUrl ? openRedis(redisUrl, base.log) : null;
  const events = redis
    ? new EventBus(new RedisEventTransport(redis, queuePrefix, base.log), (err) => base.log.warn({ err }, 'dropped an undecodable event message'))
    : new EventBus();
  const rateLimits: RateLimitStore = redis ? new RedisRateLimitStore(redis, queuePrefix, base.log) : new RateLimiter();
  const failureCounts: FailureCountStore = redis ? new RedisFailureCounts(redis, queuePrefix, base.log) : new MemoryFailureCounts();
  const signInThrottle = new SignInThrottle(failureCounts);
  const previewPasswordThrottle = new FailureThrottle(failureCounts, 'preview', PREVIEW_PASSWORD_LIMITS);
  const apiKeys = new ApiKeyCache({ ...base, events });
  const projects = new ProjectCache({ db: base.db, events, config: base.config });
  const jobs = createJobQueue(base.config, base.log);
  const ctx: Omit<AppContext, 'buildRunner'> = { ...base, events, redis, rateLimits, apiKeys, projects, failureCounts, signInThrottle, previewPasswordThrottle, authFailures: new AuthFailures(rateLimits, AUTH_FAILURE_LIMIT), deploymentStore: createDeploymentStore(base.config), readiness: new Readiness(), metrics: new AppMetrics(), jobs, audienceTokens: createAudienceTokenCache(events), buildStates: new BuildStateMemory(), access: new AccessState({ db: base.db, events, log: base.log, config: base.config }), search: createSearchState({ db: base.db, events, log: base.log }), analytics: new AnalyticsBuffer({ db: base.db, jobs, projects, log: base.log }), siteOrigins: new SiteOriginCache(events), liveStreams: new LiveStreams(), locks: new KeyedLock(), deployedInventories: new DeployedInventories(), reviewReports: new ReviewReports() };
  // The runner keeps the context it works in, which then holds the runner: the same object on both sides.
  const app = ctx as AppContext;
  app.buildRunner = new BuildRunner(app);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
