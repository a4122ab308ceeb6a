/**
 * `pnpm bench:api`: requests/second and p99 latency of `GET /v1/projects/{id}` with a valid key
 * (auth, rate limit, project lookup, serialization: the whole API path) under wrk, beside a bare
 * `node:http` server answering the same JSON, in alternating rounds; prints both and their ratio
 * (goal: Quire at least half the bare server's rate).
 *
 * Each round also measures `GET /healthz` on the same server: answered from the first hooks (no
 * key, no rate limit, no route handler), it is the floor of Quire's own HTTP stack (Fastify, the
 * request id, request logging) and shows how much of the gap the API's work is.
 *
 * The machine's speed drifts between rounds (other processes, CPU frequency), so each Quire round is
 * paired with the bare round right after it, and the median of those per-round ratios is the figure
 * to read; the ratio of the two medians is printed too.
 *
 * Environment: BENCH_ROUNDS (default 5), BENCH_DURATION seconds (default 5), BENCH_CONNECTIONS (default 50).
 * With REDIS_URL set (e.g. `REDIS_URL=redis://127.0.0.1:6379 pnpm bench:api`) Quire runs as one
 * process of a multi-process installation: rate-limit counters in Redis (one round trip per
 * request) and events through pub/sub, under a fresh key prefix deleted afterwards.
 * Ports 47020 (Quire) and 47021 (bare). Needs wrk (Debian package, /usr/bin/wrk).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/env';
import { createApiKey } from '../src/services/api-keys';
import { createOrganization } from '../src/services/organizations';
import { closeRedis, openRedis } from '../src/redis';

const run = promisify(execFile);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const QUIRE_PORT = 47020;
const BARE_PORT = 47021;
/** Goal of the API's rate over the same server's `/healthz` rate: the API's own work costs at most 15% of the floor. */
const OWN_WORK_GOAL = 0.85;

/** One wrk run's figures. */
interface WrkResult {
  rps: number;
  p99Ms: number;
  non2xx: number;
}

/** Milliseconds of a wrk latency figure such as `812.00us`, `1.23ms` or `1.01s`. */
function toMs(value: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(value);
  if (!m) throw new Error(`unexpected wrk latency ${value}`);
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
}

/** Runs wrk against `url` and parses requests/second, p99 and non-2xx responses. */
async function wrk(url: string, headers: string[]): Promise<WrkResult> {
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${DURATION}s`, '--latency', ...headers.flatMap((h) => ['-H', h]), url];
  const { stdout } = await run('wrk', args, { maxBuffer: 1 << 20 });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const p99 = /\s99%\s+([\d.]+\w+)/.exec(stdout)?.[1];
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  if (!rps || !p99) throw new Error(`could not parse wrk output:\n${stdout}`);
  return { rps, p99Ms: toMs(p99), non2xx };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-api-'));
  const redisUrl = process.env.REDIS_URL || undefined;
  const prefix = `quire-bench-${process.pid}`;
  const config = loadConfig({
    QUIRE_DATA_DIR: dataDir,
    PORT: String(QUIRE_PORT),
    HOST: '127.0.0.1',
    QUIRE_LOG_LEVEL: 'warn',
    ...(redisUrl ? { REDIS_URL: redisUrl, QUIRE_QUEUE_PREFIX: prefix } : {}),
  });
  const app = await buildApp(config, { runJobs: false });
  // An enterprise organization with a limit wrk cannot reach, so every request does the full work and answers 200.
  const org = await createOrganization(app.ctx.db, { name: 'Bench', plan: 'enterprise', rateLimit: 1_000_000_000 });
  const { key } = await createApiKey(app.ctx.db, { orgId: org.id, createdById: null, name: 'bench', permissions: ['projects:read', 'projects:write'] });
  await app.listen({ port: QUIRE_PORT, host: '127.0.0.1' });
  const created = await app.inject({ method: 'POST', url: '/v1/projects', headers: { authorization: `Bearer ${key}` }, payload: { name: 'Bench Docs' } });
  const projectId = created.json<{ data: { id: string } }>().data.id;
  const body = (await app.inject({ url: `/v1/projects/${projectId}`, headers: { authorization: `Bearer ${key}` } })).body;

  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => bare.listen(BARE_PORT, '127.0.0.1', resolve));

  const quireUrl = `http://127.0.0.1:${QUIRE_PORT}/v1/projects/${projectId}`;
  const bareUrl = `http://127.0.0.1:${BARE_PORT}/v1/projects/${projectId}`;
  console.log(`bench:api  GET /v1/projects/{id}  ${redisUrl ? 'with Redis (shared rate limits, events)' : 'default path (in-memory rate limits)'}  wrk -t1 -c${CONNECTIONS} -d${DURATION}s, ${ROUNDS} alternating rounds, ${os.cpus().length} cores`);
  // Warm-up of all three targets (JIT, caches, heap size): Quire's API path takes two runs to settle
  // (its first runs answered a third fewer requests), so it gets two.
  for (const [url, headers] of [[quireUrl, [`Authorization: Bearer ${key}`]], [quireUrl, [`Authorization: Bearer ${key}`]], [bareUrl, []], [`http://127.0.0.1:${QUIRE_PORT}/healthz`, []]] as const) {
    await wrk(url, [...headers]).catch(() => undefined);
  }
  const quire: WrkResult[] = [];
  const plain: WrkResult[] = [];
  const floor: WrkResult[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const q = await wrk(quireUrl, [`Authorization: Bearer ${key}`]);
      const b = await wrk(bareUrl, []);
      const h = await wrk(`http://127.0.0.1:${QUIRE_PORT}/healthz`, []);
      quire.push(q);
      plain.push(b);
      floor.push(h);
      console.log(
        `round ${round}: quire ${q.rps.toFixed(0).padStart(6)} req/s  p99 ${q.p99Ms.toFixed(2).padStart(6)} ms${q.non2xx ? ` (${q.non2xx} non-2xx!)` : ''}` +
          ` | bare ${b.rps.toFixed(0).padStart(6)} req/s  p99 ${b.p99Ms.toFixed(2).padStart(6)} ms | ratio ${(q.rps / b.rps).toFixed(2)}` +
          ` | /healthz ${h.rps.toFixed(0).padStart(6)} req/s (${(h.rps / b.rps).toFixed(2)})`,
      );
    }
  } finally {
    await app.close();
    await new Promise<void>((resolve) => bare.close(() => resolve()));
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (redisUrl) {
      const redis = openRedis(redisUrl, console, 'quire-bench');
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      await closeRedis(redis);
    }
  }
  const q = median(quire.map((r) => r.rps));
  const b = median(plain.map((r) => r.rps));
  console.log(`median: quire ${q.toFixed(0)} req/s (p99 ${median(quire.map((r) => r.p99Ms)).toFixed(2)} ms), bare node:http ${b.toFixed(0)} req/s (p99 ${median(plain.map((r) => r.p99Ms)).toFixed(2)} ms)`);
  const paired = median(quire.map((r, i) => r.rps / plain[i]!.rps));
  console.log(`ratio quire/bare: ${paired.toFixed(2)} (median of per-round ratios; goal >= 0.50); ratio of medians ${(q / b).toFixed(2)}`);
  const floorRatio = median(floor.map((r, i) => r.rps / plain[i]!.rps));
  console.log(`floor: GET /healthz on the same server ${median(floor.map((r) => r.rps)).toFixed(0)} req/s, ${floorRatio.toFixed(2)} of bare (Fastify, request id and logging without the API's work)`);
  // the API's own work: each round's API rate over the same server's /healthz rate, measured right after it
  const ownWork = median(quire.map((r, i) => r.rps / floor[i]!.rps));
  const met = ownWork >= OWN_WORK_GOAL ? 'MET' : 'NOT MET';
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`API / own /healthz: ${ownWork.toFixed(2)} (median of per-round ratios; goal >= ${OWN_WORK_GOAL}) ${met}; load average ${load}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
