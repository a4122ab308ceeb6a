/**
 * The Redis pub/sub transport of the event bus (events.ts): every process publishes its shared
 * events on one channel, `<prefix>:events`, and subscribes to it on its own subscriber
 * connection. Redis pub/sub delivers at most once, to the processes subscribed at that moment;
 * after a lost connection ioredis subscribes again and the bus emits `reconnected` so caches
 * resync.
 */
import type { Redis } from 'ioredis';
import type { EventTransport } from '../events';
import { closeRedis, duplicateRedis, type RedisLog } from '../redis';

/** How long {@link RedisEventTransport.start} waits for the subscription before giving up. */
export const SUBSCRIBE_TIMEOUT_MS = 10_000;

/** The channel of an installation's events for a key prefix (`QUIRE_QUEUE_PREFIX`). */
export function eventChannel(prefix: string): string {
  return `${prefix}:events`;
}

/** The Redis `CLIENT SETNAME` of a process's event subscriber connection (shown by `CLIENT LIST`). */
export function subscriberName(prefix: string): string {
  return `quire-events:${prefix}`;
}

/** Events over Redis pub/sub; see the module comment. */
export class RedisEventTransport implements EventTransport {
  private subscriber: Redis | null = null;
  private readonly channel: string;
  private readonly prefix: string;

  /**
   * @param publisher the process's command connection (shared; not closed here).
   * @param prefix key prefix of the installation: processes with the same prefix hear each other.
   * @param timeoutMs how long {@link start} waits for Redis (ms).
   */
  constructor(
    private readonly publisher: Redis,
    prefix: string,
    private readonly log: RedisLog,
    private readonly timeoutMs = SUBSCRIBE_TIMEOUT_MS,
  ) {
    this.prefix = prefix;
    this.channel = eventChannel(prefix);
  }

  publish(message: string): void {
    this.publisher.publish(this.channel, message).catch((err: unknown) => {
      this.log.warn({ err, channel: this.channel }, 'could not publish an event to Redis; other processes will not see it');
    });
  }

  /**
   * Subscribes and waits for the command connection too (so counters and publishing work at once).
   * @throws Error naming REDIS_URL when both are not confirmed within the timeout (default {@link SUBSCRIBE_TIMEOUT_MS}); the
   *   subscriber connection is closed then.
   */
  async start(onMessage: (message: string) => void, onReconnect: () => void): Promise<void> {
    const subscriber = duplicateRedis(this.publisher, this.log, subscriberName(this.prefix), { autoResubscribe: false });
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) onMessage(message);
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.all([subscriber.subscribe(this.channel), this.publisher.ping()]),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`REDIS_URL: could not subscribe to Redis channel ${this.channel} within ${this.timeoutMs / 1000} s; is Redis reachable?`)),
            this.timeoutMs,
          );
        }),
      ]);
    } catch (err) {
      await this.close();
      throw err;
    } finally {
      clearTimeout(timer);
    }
    // Every later `ready` follows a lost connection, on a fresh connection that is subscribed to
    // nothing. Caches resync once Redis confirms the new subscription, so no message can slip
    // between their reload and the subscription. When the connection drops again before the
    // answer, the next `ready` tries again; the failure is only logged.
    subscriber.on('ready', () => {
      subscriber.subscribe(this.channel).then(onReconnect, (err: unknown) => {
        if (this.subscriber === subscriber) this.log.warn({ err, channel: this.channel }, 'could not subscribe to Redis again; retrying on the next connection');
      });
    });
  }

  async close(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = null;
    if (subscriber) await closeRedis(subscriber);
  }
}
