/**
 * The request a piece of code runs for, without passing it down: the request-id plugin runs each
 * request's hooks and handler inside {@link RequestScope.run} with the request's logger, and the
 * context's logger ({@link scopedLogger}) writes through that logger while inside, so a service's
 * log line carries the `reqId` the client got in `X-Request-Id` (decisions.md section 3) while the
 * service only knows `ctx.log`. Outside a request (build runner, timers) it is the app's logger.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger } from 'fastify';

/** The logger of the request being served, kept across awaits. One per app (built by `buildApp`). */
export class RequestScope {
  private readonly storage = new AsyncLocalStorage<FastifyBaseLogger>();

  /** Runs `fn` (and everything it starts) as part of the request whose logger is `log`. */
  run(log: FastifyBaseLogger, fn: () => void): void {
    this.storage.run(log, fn);
  }

  /** The current request's logger, or undefined outside a request. */
  current(): FastifyBaseLogger | undefined {
    return this.storage.getStore();
  }
}

type AnyLogFn = (...args: unknown[]) => void;

/**
 * A logger that writes through `scope`'s current request logger when there is one (its lines get
 * that request's `reqId`), else through `base`. `child()` binds to whichever is current at the call.
 */
export function scopedLogger(base: FastifyBaseLogger, scope: RequestScope): FastifyBaseLogger {
  const at = (level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent') =>
    ((...args: unknown[]) => ((scope.current() ?? base)[level] as AnyLogFn)(...args)) as FastifyBaseLogger['info'];
  return {
    get level() {
      return base.level;
    },
    set level(value: string) {
      base.level = value;
    },
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: at('silent'),
    child: (bindings, options) => (scope.current() ?? base).child(bindings, options),
  } as FastifyBaseLogger;
}
