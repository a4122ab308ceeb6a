/**
 * Structured JSON logs carry the request id: every line Fastify writes for a request (incoming,
 * completed, a 500's error) has `reqId` equal to the `X-Request-Id` the client got.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/env';

let app: FastifyInstance;
let dataDir: string;
const lines: Record<string, unknown>[] = [];
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-log-'));
  const config = loadConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'debug' });
  app = await buildApp(config, { runJobs: false, logStream: { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
  app.get('/v1/test-boom', { config: { public: true } }, async () => {
    throw new Error('database exploded');
  });
  // A route whose work logs through the context's logger after an await and after reading a body, as a service does.
  app.post('/v1/test-service-log', { config: { public: true } }, async (req) => {
    await new Promise((r) => setTimeout(r, 5));
    app.ctx.log.info({ got: (req.body as { n: number }).n }, 'service line');
    return { ok: true };
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('request logs', () => {
  it('writes JSON lines whose reqId is the X-Request-Id of the response', async () => {
    const res = await app.inject({ url: '/healthz' });
    const id = res.headers['x-request-id'];
    const mine = lines.filter((l) => l.reqId === id);
    expect(mine.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(mine[1]).toMatchObject({ level: 20, res: { statusCode: 200 } });
  });

  it('logs a failed request at error level with its reqId, and tells the client only the id', async () => {
    const res = await app.inject({ url: '/v1/test-boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('exploded');
    const error = lines.find((l) => l.reqId === res.headers['x-request-id'] && l.level === 50);
    expect(error).toMatchObject({ msg: 'request failed', err: { message: 'database exploded' } });
  });

  it('gives a service line logged through ctx.log during a request that request id, and a line outside requests none', async () => {
    // Over a real socket, with a body read after the hook, and two requests interleaved.
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const post = (n: number) => fetch(`${base}/v1/test-service-log`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
    const [one, two] = await Promise.all([post(1), post(2)]);
    const service = lines.filter((l) => l.msg === 'service line');
    expect(service.find((l) => l.got === 1)?.reqId).toBe(one.headers.get('x-request-id'));
    expect(service.find((l) => l.got === 2)?.reqId).toBe(two.headers.get('x-request-id'));
    app.ctx.log.info('outside');
    expect(lines.find((l) => l.msg === 'outside')).not.toHaveProperty('reqId');
  });
});
