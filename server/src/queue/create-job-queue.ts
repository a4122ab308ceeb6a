import type { Config } from '../env';
import type { RedisLog } from '../redis';
import { BullMqQueue } from './bullmq-queue';
import { InProcessQueue } from './in-process-queue';
import type { JobQueue } from './job-queue';

/**
 * The queue the configuration names: BullMQ on `config.redisUrl` with key prefix
 * `config.queuePrefix` when REDIS_URL is set, else the in-process queue. Nothing is contacted
 * until the first call.
 */
export function createJobQueue(config: Pick<Config, 'redisUrl' | 'queuePrefix'>, log: RedisLog & { error(obj: object, msg: string): void }): JobQueue {
  return config.redisUrl ? new BullMqQueue({ url: config.redisUrl, prefix: config.queuePrefix, log }) : new InProcessQueue(log);
}
