/**
 * Real Quire processes for multi-process tests: `pnpm start` (server/src/server.ts) and
 * `pnpm quire worker` (server/src/cli/index.ts worker) started with `node --import tsx` and the
 * environment given, plus small HTTP helpers that talk to them over TCP (site requests carry a
 * Host header, which `fetch` does not let a caller set).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A running server or worker process. */
export interface QuireProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` for a server; empty for a worker. */
  base: string;
  port: number;
  /** Everything the process wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** Sends `signal` and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it; closed again before returning). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server (`kind: 'server'`, listening on `port` or a free one) or a worker with `env`,
 * and resolves once it says it is running ("Quire is running." / "Quire worker running").
 * @throws Error with the process's stderr when it exits first or is not ready within 60 s.
 */
export async function startQuire(kind: 'server' | 'worker', env: NodeJS.ProcessEnv, port?: number): Promise<QuireProcess> {
  const usePort = kind === 'server' ? (port ?? (await freePort())) : 0;
  const args = kind === 'server' ? [path.join(serverRoot, 'src/server.ts')] : [path.join(serverRoot, 'src/cli/index.ts'), 'worker'];
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: serverRoot,
    env: { ...env, HOST: '127.0.0.1', PORT: String(usePort || 3000) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const readyText = kind === 'server' ? 'Quire is running.' : 'Quire worker running';
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${kind} not ready within 60 s:\n${err}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(readyText)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${kind} exited with ${code} before it was ready:\n${err}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  return {
    child,
    base: usePort ? `http://127.0.0.1:${usePort}` : '',
    port: usePort,
    stderr: () => err,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A parsed JSON body as tests read it (fields are checked by the assertions that use them). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A JSON API call to a server process: status and parsed body (null when the body is not JSON). */
export async function api(base: string, key: string, method: string, url: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: Json = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json };
}

/** GET `url` from the server at `port` with the Host header `host` (a published site's name). */
export function siteGet(port: number, host: string, url = '/'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: url, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

/**
 * Polls `probe` every `everyMs` milliseconds (default 100) until it returns something other than undefined.
 * Probes that call the API with one key should poll slower when many run at once: the key's limit
 * (1,000 requests a minute on the Pro plan, interface spec) is shared by every server of a cluster.
 * @throws Error naming `what` after `ms` milliseconds.
 */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  ms: number,
  everyMs = 100,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
