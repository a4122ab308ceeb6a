/**
 * Each request's logger (`req.log`, `reply.log`) without a pino child per request: Fastify's
 * default builds `logger.child({ reqId })` for every request, which serializes the bindings even
 * when no line is ever written (at the default levels an API call that succeeds writes none).
 * {@link DeferredChildLogger} answers the level check from the parent and builds the child on the
 * first line that is actually written, so every line still carries `reqId` (decisions.md
 * section 3: the id the client got in `X-Request-Id`).
 */
import type { FastifyBaseLogger, FastifyServerOptions, LogLevel } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = Parameters<FastifyBaseLogger['child']>[1];

type LogFn = (...args: unknown[]) => void;
type Level = Exclude<LogLevel, 'silent'>;

/** A pino logger as far as this module uses it: Fastify's base logger plus pino's level check. */
type PinoLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/** A request logger whose pino child (with the request's bindings) is built on its first written line. */
export class DeferredChildLogger implements FastifyBaseLogger {
  private built: FastifyBaseLogger | undefined;

  /**
   * @param parent the app's pino logger
   * @param bindings what every line of the request carries (`{ reqId }`)
   */
  constructor(
    private readonly parent: PinoLogger,
    private readonly bindings: Bindings,
  ) {}

  /** The pino child, built once. */
  private get logger(): FastifyBaseLogger {
    this.built ??= this.parent.child(this.bindings) as FastifyBaseLogger;
    return this.built;
  }

  get level(): string {
    return this.built ? this.built.level : this.parent.level;
  }

  set level(value: string) {
    this.logger.level = value;
  }

  /** True when a line at `level` would be written (asked of the parent until the child exists). */
  private enabled(level: Level): boolean {
    return this.built ? (this.built as PinoLogger).isLevelEnabled(level) : this.parent.isLevelEnabled(level);
  }

  fatal(...args: unknown[]): void {
    if (this.enabled('fatal')) (this.logger.fatal as LogFn)(...args);
  }

  error(...args: unknown[]): void {
    if (this.enabled('error')) (this.logger.error as LogFn)(...args);
  }

  warn(...args: unknown[]): void {
    if (this.enabled('warn')) (this.logger.warn as LogFn)(...args);
  }

  info(...args: unknown[]): void {
    if (this.enabled('info')) (this.logger.info as LogFn)(...args);
  }

  debug(...args: unknown[]): void {
    if (this.enabled('debug')) (this.logger.debug as LogFn)(...args);
  }

  trace(...args: unknown[]): void {
    if (this.enabled('trace')) (this.logger.trace as LogFn)(...args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: a {@link DeferredChildLogger} for each request, or the logger's own
 * child when the route sets its own level or serializers (none of Quire's do) or the logger is not
 * pino (it cannot answer the level check).
 */
export const deferredChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  options.level !== undefined || options.serializers !== undefined || typeof (logger as Partial<PinoLogger>).isLevelEnabled !== 'function'
    ? logger.child(bindings, options)
    : new DeferredChildLogger(logger as PinoLogger, bindings);
