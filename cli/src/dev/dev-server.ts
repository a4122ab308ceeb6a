/**
 * `quire-docs dev`: serves a docs folder on 127.0.0.1 (node:http), rendered by the build's code
 * (dev-site.ts) and answered as site hosting answers (dev-answers.ts). The folder is watched
 * (`fs.watch`, recursive; `.git` and `node_modules` left out); changes are gathered for
 * {@link DevServerOptions.debounceMs}, then only the pages they affect are rendered again (or the
 * whole project loaded again, dev-site.ts) and every open page is told to reload by a Server-Sent
 * Event (live-reload.ts). Build errors are printed and shown in place of the page; the server keeps running.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BuildWarning } from '@quire/shared/docs/types';
import { hostHeaderRefusal, hostHeaderValues } from '@quire/shared/net/loopback';
import { UsageError } from '../usage-error';
import { answer, type DevState } from './dev-answers';
import { DevSite, type DevUpdate } from './dev-site';
import { EVENTS_PATH, sseEvent } from './live-reload';

/** What {@link startDevServer} takes. */
export interface DevServerOptions {
  /** the folder to serve (a repository or its docs folder), absolute */
  dir: string;
  /** the folder file names are printed relative to */
  cwd: string;
  /** TCP port on 127.0.0.1; 0 picks a free one */
  port: number;
  out: (text: string) => void;
  err: (text: string) => void;
  /** how long changes are gathered before one update, in ms (default 100) */
  debounceMs?: number;
}

/** A running dev server. */
export interface DevServer {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** the site served now, or the error that stops it from loading */
  state: DevState;
  /** Stops watching, ends the event streams and closes the server. */
  close(): Promise<void>;
}

/** Folders whose changes never matter. */
const IGNORED = /(?:^|\/)(?:\.git|node_modules)(?:\/|$)/;

/**
 * Loads the site, starts the server and the watcher.
 * @throws UsageError when the folder or its configuration cannot be used, or the port is taken
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const { dir, cwd, out, err } = options;
  const rel = (docsRel: string, site: DevSite) => path.relative(cwd, path.join(site.docsRoot, docsRel)).split(path.sep).join('/');
  const started = performance.now();
  const state: DevState = { site: await DevSite.load(dir, cwd) };
  report(state.site!, [...state.site!.pages.keys()], rel, err);
  out(`${state.site!.pages.size} pages rendered in ${Math.round(performance.now() - started)} ms\n`);

  const streams = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const hostRefusal = hostHeaderRefusal(hostHeaderValues(req.rawHeaders));
    if (hostRefusal !== null) {
      // Only this computer's names: a page reaching the server through a DNS name of its own (DNS rebinding) reads nothing.
      const status = hostRefusal === 'not loopback' ? 403 : 400;
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(status === 403 ? 'quire-docs dev answers on localhost only.\n' : 'Bad Host header.\n');
      return;
    }
    if ((req.url ?? '/').split('?')[0] === EVENTS_PATH) {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write('retry: 1000\n\n');
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed');
      return;
    }
    const a = answer(state, req.url ?? '/');
    res.writeHead(a.status, a.headers).end(req.method === 'HEAD' ? undefined : a.body);
  });
  await listen(server, options.port);
  const port = (server.address() as { port: number }).port;

  // Changes are gathered, then applied one batch at a time.
  let pending = new Set<string>();
  let everything = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const apply = async () => {
    const changed = [...pending];
    const full = everything || state.error !== undefined;
    pending = new Set();
    everything = false;
    const t0 = performance.now();
    let done: DevUpdate;
    try {
      done = full ? { kind: 'full' } : await state.site!.update(changed);
      if (done.kind === 'full') {
        const site = await DevSite.load(dir, cwd, state.site?.highlighter);
        state.site = site;
        delete state.error;
        report(site, [...site.pages.keys()], rel, err);
        out(`reloaded the project: ${site.pages.size} pages in ${Math.round(performance.now() - t0)} ms\n`);
      } else if (done.kind === 'pages') {
        report(state.site!, done.pages, rel, err);
        out(`rendered ${done.pages.join(', ')} in ${Math.round(performance.now() - t0)} ms\n`);
      }
    } catch (e) {
      if ((e as Error).name !== 'UsageError') throw e;
      state.error = (e as Error).message;
      err(`error: ${state.error}\n`);
      done = { kind: 'full' };
    }
    for (const s of streams) s.write(sseEvent('reload', done));
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(apply).catch((e: unknown) => err(`quire-docs: internal error: ${(e as Error)?.stack ?? String(e)}\n`));
    }, options.debounceMs ?? 100);
  };
  const watcher = fs.watch(dir, { recursive: true }, (_event, name) => {
    if (name === null) everything = true;
    else {
      const file = name.toString().split(path.sep).join('/');
      if (IGNORED.test(file)) return;
      pending.add(file);
    }
    schedule();
  });
  watcher.on('error', (e) => err(`quire-docs: watching ${dir} failed: ${e.message}\n`));

  return {
    url: `http://127.0.0.1:${port}/`,
    state,
    async close() {
      clearTimeout(timer);
      watcher.close();
      await running;
      for (const s of streams) s.end();
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Listens on 127.0.0.1. @throws UsageError when the port is taken or not allowed */
function listen(server: http.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE') reject(new UsageError(`port ${port} on 127.0.0.1 is taken: stop what uses it, or choose another with --port`));
      else if (e.code === 'EACCES') reject(new UsageError(`port ${port} on 127.0.0.1 may not be used by this user: choose another with --port`));
      else reject(e);
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

/** Prints the render errors and warnings of pages (file names relative to the working folder). */
function report(site: DevSite, pages: string[], rel: (docsRel: string, site: DevSite) => string, err: (t: string) => void): void {
  const line = (w: BuildWarning) => `${w.file ? `${rel(w.file, site)}${w.line ? `:${w.line}` : ''}: ` : ''}warning [${w.kind}] ${w.message}\n`;
  for (const p of site.problems(pages)) {
    if (p.error) err(`error: ${relError(p.error, site, rel)}\n`);
    for (const w of p.warnings) err(line(w));
  }
}

/** A page error `file:line: reason` with the file relative to the working folder. */
function relError(error: string, site: DevSite, rel: (docsRel: string, site: DevSite) => string): string {
  const m = /^([^:\s]+\.mdx?)(:.*)$/s.exec(error);
  return m ? `${rel(m[1]!, site)}${m[2]}` : error;
}
