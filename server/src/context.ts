import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './env';
import type { Db } from './db/client';
import type { EventBus } from './events';

/**
 * What every part of one server process shares: configuration, database handles, the event bus
 * and the logger. Built once by `buildApp` and decorated on the Fastify instance as `app.ctx`.
 * Services take it (or the parts they need) as their first argument.
 */
export interface AppContext {
  config: Config;
  db: Db;
  events: EventBus;
  log: FastifyBaseLogger;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
