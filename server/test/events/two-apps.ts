/**
 * Two Quire apps on one SQLite data directory and one Redis key prefix, as two server processes
 * of one installation behind a load balancer would be (events and rate-limit counters cross
 * through Redis). `close()` closes both, deletes the prefix's keys and the data directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/env';

/** Two apps sharing a database and a Redis prefix. */
export interface TwoApps {
  a: FastifyInstance;
  b: FastifyInstance;
  /** The bootstrap admin key (made by app A). */
  adminKey: string;
  /** The Redis key prefix of this pair (unique per call). */
  prefix: string;
  /** A plain connection for the test's own checks (closed by `close`). */
  redis: Redis;
  close(): Promise<void>;
}

/** Deletes every key under `prefix:` (the test prefixes are unique, so only this test's keys). */
export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
}

/** Builds app A then app B (B finds A's bootstrap done) on a fresh data directory and prefix. */
export async function createTwoApps(redisUrl: string): Promise<TwoApps> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-two-apps-'));
  const prefix = `quire-test-${randomUUID().slice(0, 8)}`;
  const config = loadConfig({
    QUIRE_DATA_DIR: dataDir,
    QUIRE_LOG_LEVEL: 'silent',
    REDIS_URL: redisUrl,
    QUIRE_QUEUE_PREFIX: prefix,
  });
  const a = await buildApp(config, { runJobs: false });
  await a.ready();
  const b = await buildApp(config, { runJobs: false });
  await b.ready();
  const redis = new Redis(redisUrl);
  const adminKey = a.bootstrap.adminKey;
  if (!adminKey) throw new Error('createTwoApps: app A made no admin key');
  return {
    a,
    b,
    adminKey,
    prefix,
    redis,
    async close() {
      await Promise.all([a.close(), b.close()]);
      await deletePrefix(redis, prefix);
      await redis.quit();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
