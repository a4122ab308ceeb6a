import path from 'node:path';
import { z } from 'zod';
import { dataPaths } from './data-paths';
import { databaseProvider } from './db/provider';
import { CidrSchema } from '@quire/shared/api/access';

/**
 * Quire's configuration, parsed once from the environment (decisions.md section 1).
 * Every variable is optional; defaults give the embedded setup (SQLite + local disk).
 */
export const ConfigSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(4000),
  host: z.string().min(1).default('127.0.0.1'),
  /** Absolute path of the data directory (database, repo caches, built sites, search indexes). */
  dataDir: z.string().min(1),
  /** `file:<path>` (SQLite, the default) or `postgres://`/`postgresql://` (PostgreSQL); see db/provider.ts. */
  databaseUrl: z.string().min(1),
  /** Redis of the installation: BullMQ job queue (queue/bullmq-queue.ts), events across processes, shared rate limits; unset: all in-process. */
  redisUrl: z.string().url().optional(),
  /** Prefix of every Redis key and channel of this installation (queues, events, rate-limit counters); processes sharing it work together. */
  queuePrefix: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, "_", "." or "-", at most 64').default('quire'),
  /** `QUIRE_WORKERS=0`: `pnpm start` serves HTTP only and works no jobs (run `pnpm quire worker` processes); default 1. */
  workers: z.boolean().default(true),
  /** Host suffix of sites: `<slug>-docs.<sitesDomain>`. */
  sitesDomain: z.string().min(1).default('localhost'),
  /** Registered as the default organization's admin key on a start with no API key. */
  adminKey: z.string().min(1).optional(),
  adminEmail: z.string().email().default('admin@quire.local'),
  defaultPlan: z.enum(['free', 'pro', 'enterprise']).default('pro'),
  /** `QUIRE_ALLOW_FILE_REPOS=1`: allow file:// and local repo paths (local use and tests). */
  allowFileRepos: z.boolean().default(false),
  /**
   * `QUIRE_ALLOW_PRIVATE_NETWORK=1`: outbound connections (git, webhook deliveries) may reach
   * loopback, private and link-local addresses (decisions.md section 10); separate from
   * `allowFileRepos`. Default off.
   */
  allowPrivateNetwork: z.boolean().default(false),
  /**
   * `QUIRE_GITHUB_APP_WEBHOOK_SECRET`: the secret of the GitHub App's central webhook (`POST /v1/webhooks/github-app`); unset:
   * that receiver answers 401 to every delivery.
   */
  githubAppWebhookSecret: z.string().min(8).optional(),
  /**
   * `QUIRE_SECRET_KEY`: 32 bytes (base64 or 64 hex digits) sealing stored secrets such as git credentials (git/secret-box.ts);
   * unset: `<data dir>/secret-key`.
   */
  secretKey: z.string().regex(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, '32 bytes as base64 (44 characters) or 64 hex digits').optional(),
  /**
   * `QUIRE_TRUSTED_PROXIES`: comma-separated CIDR ranges (or addresses) of the reverse proxies in
   * front of Quire, e.g. `127.0.0.1,10.0.0.0/8`. Only a request whose socket address is in them has
   * its `X-Forwarded-For` read: the visitor is the right-most address there that is not itself a
   * trusted proxy (access/client-ip.ts). Default none: the socket address is the visitor.
   */
  trustedProxies: z.array(CidrSchema).default([]),
  /** Public base URL of the API, for links in responses; defaults to http://<host>:<port>. */
  publicUrl: z.string().url().optional(),
  /** Pino log level; `silent` in tests. */
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Enterprise plan limits (decisions.md section 2: "limits from configuration"). */
  enterpriseRateLimit: z.coerce.number().int().positive().default(10_000),
  enterpriseProjectLimit: z.coerce.number().int().positive().default(1_000),
  /** Enterprise monthly plan limits (decisions.md section 2): builds and assistant answers per calendar month (UTC). */
  enterpriseMonthlyBuilds: z.coerce.number().int().positive().default(20_000),
  enterpriseMonthlyAnswers: z.coerce.number().int().positive().default(100_000),
  /**
   * `QUIRE_LLM_URL`: base URL of an OpenAI-compatible API (`<url>/chat/completions`, streamed) writing the assistant's answers
   * (chat/llm.ts); unset: the extractive answerer (decisions.md section 7).
   */
  llmUrl: z.string().url().optional(),
  /** `QUIRE_LLM_MODEL`: the `model` sent to that endpoint; unset: none is sent (the endpoint's default). */
  llmModel: z.string().min(1).optional(),
  /** `QUIRE_LLM_API_KEY`: sent as `Authorization: Bearer <key>` to that endpoint; unset: no header. */
  llmApiKey: z.string().min(1).optional(),
  /** Bearer token `GET /metrics` requires; unset: /metrics is open to whoever reaches the listener (plugins/metrics.ts). */
  metricsToken: z.string().min(16).optional(),
  /** Builds of different projects that may run at once in this process (each renders on every core). */
  buildConcurrency: z.coerce.number().int().min(1).max(16).default(1),
  /** Wall-clock budget of one build, in seconds (build-limits.ts). */
  buildTimeoutSeconds: z.coerce.number().int().min(1).default(900),
  /** Largest repository a build takes, in MiB: what one fetch downloads and what the checked-out files add up to. */
  buildMaxRepoMb: z.coerce.number().int().min(1).default(1024),
  /** Most files a build's checkout may hold. */
  buildMaxFiles: z.coerce.number().int().min(1).default(50_000),
  /** Bucket of the S3-compatible deployment store (storage/s3-store.ts); unset: deployments stay on local disk. */
  s3Bucket: z.string().min(1).optional(),
  /** Endpoint URL of a non-AWS S3 service (MinIO, R2...); unset: AWS. */
  s3Endpoint: z.string().url().optional(),
  s3Region: z.string().min(1).default('us-east-1'),
  /** Credentials of the bucket; unset: the AWS SDK's default chain (environment, instance role). */
  s3AccessKeyId: z.string().min(1).optional(),
  s3SecretAccessKey: z.string().min(1).optional(),
  /** `QUIRE_S3_FORCE_PATH_STYLE=1`: bucket in the URL path, not the host name (MinIO and most self-hosted services). */
  s3ForcePathStyle: z.boolean().default(false),
});

/** Parsed configuration; see {@link ConfigSchema}. */
export type Config = z.infer<typeof ConfigSchema>;

/** Thrown when the environment is invalid; the message names the variable and what was expected. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const FLAG = (v: string | undefined) => v === '1' || v === 'true';

/**
 * Reads the configuration from `env` (default `process.env`), resolving paths against `cwd`.
 * @throws ConfigError naming the variable when a value is invalid.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const dataDir = path.resolve(cwd, env.QUIRE_DATA_DIR ?? '.quire');
  const raw = {
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? `file:${dataPaths(dataDir).database}`,
    redisUrl: env.REDIS_URL || undefined,
    queuePrefix: env.QUIRE_QUEUE_PREFIX || undefined,
    workers: env.QUIRE_WORKERS !== '0' && env.QUIRE_WORKERS !== 'false',
    sitesDomain: env.QUIRE_SITES_DOMAIN,
    adminKey: env.QUIRE_ADMIN_KEY || undefined,
    adminEmail: env.QUIRE_ADMIN_EMAIL,
    defaultPlan: env.QUIRE_DEFAULT_PLAN,
    allowFileRepos: FLAG(env.QUIRE_ALLOW_FILE_REPOS),
    allowPrivateNetwork: FLAG(env.QUIRE_ALLOW_PRIVATE_NETWORK),
    githubAppWebhookSecret: env.QUIRE_GITHUB_APP_WEBHOOK_SECRET || undefined,
    secretKey: env.QUIRE_SECRET_KEY || undefined,
    trustedProxies: env.QUIRE_TRUSTED_PROXIES ? env.QUIRE_TRUSTED_PROXIES.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
    publicUrl: env.QUIRE_PUBLIC_URL || undefined,
    logLevel: env.QUIRE_LOG_LEVEL ?? env.LOG_LEVEL,
    enterpriseRateLimit: env.QUIRE_ENTERPRISE_RATE_LIMIT,
    enterpriseProjectLimit: env.QUIRE_ENTERPRISE_PROJECT_LIMIT,
    enterpriseMonthlyBuilds: env.QUIRE_ENTERPRISE_MONTHLY_BUILDS,
    enterpriseMonthlyAnswers: env.QUIRE_ENTERPRISE_MONTHLY_ANSWERS,
    llmUrl: env.QUIRE_LLM_URL || undefined,
    llmModel: env.QUIRE_LLM_MODEL || undefined,
    llmApiKey: env.QUIRE_LLM_API_KEY || undefined,
    metricsToken: env.QUIRE_METRICS_TOKEN || undefined,
    buildConcurrency: env.QUIRE_BUILD_CONCURRENCY,
    buildTimeoutSeconds: env.QUIRE_BUILD_TIMEOUT_SECONDS,
    buildMaxRepoMb: env.QUIRE_BUILD_MAX_REPO_MB,
    buildMaxFiles: env.QUIRE_BUILD_MAX_FILES,
    s3Bucket: env.QUIRE_S3_BUCKET || undefined,
    s3Endpoint: env.QUIRE_S3_ENDPOINT || undefined,
    s3Region: env.QUIRE_S3_REGION || undefined,
    s3AccessKeyId: env.QUIRE_S3_ACCESS_KEY_ID || undefined,
    s3SecretAccessKey: env.QUIRE_S3_SECRET_ACCESS_KEY || undefined,
    s3ForcePathStyle: FLAG(env.QUIRE_S3_FORCE_PATH_STYLE),
  };
  const names: Record<string, string> = {
    port: 'PORT', host: 'HOST', dataDir: 'QUIRE_DATA_DIR', databaseUrl: 'DATABASE_URL', redisUrl: 'REDIS_URL', queuePrefix: 'QUIRE_QUEUE_PREFIX', workers: 'QUIRE_WORKERS',
    sitesDomain: 'QUIRE_SITES_DOMAIN', adminKey: 'QUIRE_ADMIN_KEY', adminEmail: 'QUIRE_ADMIN_EMAIL',
    defaultPlan: 'QUIRE_DEFAULT_PLAN', allowFileRepos: 'QUIRE_ALLOW_FILE_REPOS', allowPrivateNetwork: 'QUIRE_ALLOW_PRIVATE_NETWORK',
    githubAppWebhookSecret: 'QUIRE_GITHUB_APP_WEBHOOK_SECRET', publicUrl: 'QUIRE_PUBLIC_URL', trustedProxies: 'QUIRE_TRUSTED_PROXIES',
    secretKey: 'QUIRE_SECRET_KEY',
    logLevel: 'QUIRE_LOG_LEVEL', enterpriseRateLimit: 'QUIRE_ENTERPRISE_RATE_LIMIT',
    enterpriseProjectLimit: 'QUIRE_ENTERPRISE_PROJECT_LIMIT', enterpriseMonthlyBuilds: 'QUIRE_ENTERPRISE_MONTHLY_BUILDS',
    enterpriseMonthlyAnswers: 'QUIRE_ENTERPRISE_MONTHLY_ANSWERS', metricsToken: 'QUIRE_METRICS_TOKEN', buildConcurrency: 'QUIRE_BUILD_CONCURRENCY',
    buildTimeoutSeconds: 'QUIRE_BUILD_TIMEOUT_SECONDS', buildMaxRepoMb: 'QUIRE_BUILD_MAX_REPO_MB', buildMaxFiles: 'QUIRE_BUILD_MAX_FILES',
    s3Bucket: 'QUIRE_S3_BUCKET', s3Endpoint: 'QUIRE_S3_ENDPOINT', s3Region: 'QUIRE_S3_REGION',
    s3AccessKeyId: 'QUIRE_S3_ACCESS_KEY_ID', s3SecretAccessKey: 'QUIRE_S3_SECRET_ACCESS_KEY', s3ForcePathStyle: 'QUIRE_S3_FORCE_PATH_STYLE',
    llmUrl: 'QUIRE_LLM_URL', llmModel: 'QUIRE_LLM_MODEL', llmApiKey: 'QUIRE_LLM_API_KEY',
  };
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${names[String(i.path[0])] ?? i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (!config.s3Bucket && (config.s3Endpoint || config.s3AccessKeyId || config.s3SecretAccessKey)) {
    throw new ConfigError('QUIRE_S3_BUCKET: required when other QUIRE_S3_* settings are given (the bucket deployments are stored in).');
  }
  if (Boolean(config.s3AccessKeyId) !== Boolean(config.s3SecretAccessKey)) {
    throw new ConfigError('QUIRE_S3_ACCESS_KEY_ID and QUIRE_S3_SECRET_ACCESS_KEY: give both or neither.');
  }
  if (!databaseProvider(config.databaseUrl)) {
    throw new ConfigError(
      `DATABASE_URL: expected file:<path> (SQLite) or postgres://user@host:port/database (PostgreSQL); got a ${config.databaseUrl.split(':')[0]} URL.`,
    );
  }
  return config;
}

/** Base URL the API is reached at, e.g. `http://127.0.0.1:4000`. */
export function apiBaseUrl(config: Config): string {
  return config.publicUrl?.replace(/\/$/, '') ?? `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
}
