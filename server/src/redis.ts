/**
 * The Redis connections of one process (REDIS_URL; decisions.md section 1): one command
 * connection shared by event publishing and the rate-limit store, and a subscriber connection
 * made from it by the event transport (a subscribed connection can run no other command).
 * ioredis reconnects by itself; errors are logged (at most one line per {@link ERROR_LOG_INTERVAL_MS}),
 * never thrown at the process.
 */
import { Redis } from 'ioredis';

/** Shortest interval between two logged connection errors of one connection. */
export const ERROR_LOG_INTERVAL_MS = 10_000;

/** The logger methods used here (pino and Fastify's logger qualify). */
export interface RedisLog {
  warn(obj: object, msg: string): void;
}

/**
 * Opens a connection to `url` (`redis://[user:password@]host:port[/db]` or `rediss://`).
 * Commands issued while disconnected wait for the connection (ioredis offline queue) and fail
 * after a few reconnection attempts instead of waiting forever.
 * @param name shown in logs and in Redis `CLIENT LIST`, e.g. `quire-events`.
 */
export function openRedis(url: string, log: RedisLog, name = 'quire'): Redis {
  const redis = new Redis(url, { connectionName: name, maxRetriesPerRequest: 3 });
  watchErrors(redis, log, name);
  return redis;
}

/**
 * A second connection to the same server as `redis` (e.g. for subscribing), with the same error logging.
 * @param options.autoResubscribe whether ioredis subscribes again by itself after a reconnection
 *   (default true). Its own SUBSCRIBE has no error handler: when the connection drops again before
 *   the answer, the rejection is unhandled and ends the process. Subscribers pass false and subscribe
 *   again themselves.
 */
export function duplicateRedis(redis: Redis, log: RedisLog, name: string, options: { autoResubscribe?: boolean } = {}): Redis {
  const copy = redis.duplicate({ connectionName: name, autoResubscribe: options.autoResubscribe ?? true });
  watchErrors(copy, log, name);
  return copy;
}

/** Closes a connection politely (QUIT), or at once when it is not connected. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    await redis.quit().catch(() => redis.disconnect());
  } else {
    redis.disconnect();
  }
}

function watchErrors(redis: Redis, log: RedisLog, name: string): void {
  let lastLogged = 0;
  redis.on('error', (err: Error) => {
    const now = Date.now();
    if (now - lastLogged < ERROR_LOG_INTERVAL_MS) return;
    lastLogged = now;
    log.warn({ err, connection: name }, 'Redis connection error (retrying)');
  });
}
