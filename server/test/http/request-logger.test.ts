/**
 * A request's logger builds its pino child only when a line is written, and every line it writes
 * still carries the request's bindings (`reqId`), at the level the app's logger is set to.
 */
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { DeferredChildLogger } from '../../src/http/request-logger';

const apps: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

/** A Fastify pino logger at `level` whose lines land in the returned array. */
function logger(level: string): { log: FastifyBaseLogger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const app = Fastify({ logger: { level, stream: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } } });
  apps.push(app);
  return { log: app.log, lines };
}

describe('DeferredChildLogger', () => {
  it('writes nothing below the level and writes lines at or above it with the request bindings', () => {
    const { log, lines } = logger('warn');
    const req = new DeferredChildLogger(log as ConstructorParameters<typeof DeferredChildLogger>[0], { reqId: 'r-1' });
    req.debug('not written');
    req.info({ a: 1 }, 'not written either');
    expect(lines).toEqual([]);
    expect(req.level).toBe('warn');
    req.warn({ detail: 'x' }, 'slow answer');
    req.error('failed');
    expect(lines.map((l) => [l.reqId, l.msg, l.level])).toEqual([
      ['r-1', 'slow answer', 40],
      ['r-1', 'failed', 50],
    ]);
    expect(lines[0]).toMatchObject({ detail: 'x' });
  });

  it('gives children the request bindings and their own, and follows a level set on it', () => {
    const { log, lines } = logger('info');
    const req = new DeferredChildLogger(log as ConstructorParameters<typeof DeferredChildLogger>[0], { reqId: 'r-2' });
    req.child({ buildId: 'b-1' }).info('child line');
    expect(lines.at(-1)).toMatchObject({ reqId: 'r-2', buildId: 'b-1', msg: 'child line' });
    req.level = 'error';
    req.warn('dropped');
    expect(lines.at(-1)?.msg).toBe('child line');
    expect(log.level).toBe('info');
  });
});
