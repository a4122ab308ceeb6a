import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline, type Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import type { DesktopCore } from './compose';
import { PREVIEW_PREFIX } from './preview-urls';
import { coreRouter } from './router';
import { checkRequest } from './web-request';

/** Where the built renderer lives (desktop/dist/renderer). */
export const RENDERER_DIR = fileURLToPath(new URL('../../dist/renderer', import.meta.url));
const RENDERER_SRC = fileURLToPath(new URL('../renderer', import.meta.url));
/** The app's icon: the renderer's `<link rel="icon">` (Vite copies it into the build) and the answer to `/favicon.ico`. */
const FAVICON = path.join(RENDERER_SRC, 'public', 'favicon.svg');

/**
 * The Content-Security-Policy of the app's page (the Electron shell sets the same one): scripts
 * and workers from the app only, no plugins, no remote connections but the core; inline styles are
 * allowed because Monaco and the preview's `srcdoc` document (which inherits this policy) use them.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' about:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** What {@link ensureRendererBuilt} reads and does; every member has a default (the real renderer and Vite). */
export interface RendererBuildOptions {
  /** where progress lines go (default: the console) */
  log?: (line: string) => void;
  /** the built renderer (default {@link RENDERER_DIR}) and its sources (default desktop/src/renderer) */
  rendererDir?: string;
  sourceDir?: string;
  /** runs the build (default: Vite with desktop/vite.config.ts) */
  build?: () => Promise<void>;
}

/** Vite's build of the renderer (desktop/vite.config.ts), offline: everything is bundled from node_modules. */
async function viteBuild(): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)), logLevel: 'warn' });
}

/**
 * Builds the renderer when dist/renderer is missing or older than a source file of src/renderer,
 * saying so on the log: "Building the desktop renderer (first start only)..." before, and
 * "Desktop renderer built in 24.1 s." after (the first start of `pnpm desktop:web` waits for it).
 * @returns true when it built
 */
export async function ensureRendererBuilt(options: RendererBuildOptions = {}): Promise<boolean> {
  const { log = console.log, rendererDir = RENDERER_DIR, sourceDir = RENDERER_SRC, build = viteBuild } = options;
  const index = path.join(rendererDir, 'index.html');
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= newestMtime(sourceDir)) return false;
  log('Building the desktop renderer (first start only)...');
  const started = performance.now();
  await build();
  log(`Desktop renderer built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  return true;
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' };

/** The methods each part of the core answers (RFC 9110 section 10.2.1 `Allow`): tRPC queries are GETs, mutations POSTs. */
const STATIC_METHODS = 'GET, HEAD';
const TRPC_METHODS = 'GET, POST';

/**
 * Runs `handler` for each request and turns anything it throws or rejects with into a 500 answer
 * (or, once the answer has begun, a closed connection), logged on stderr: no request can end the
 * process (CWE-248).
 */
export function answerErrors(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>): http.RequestListener {
  return (req, res) => {
    void (async () => handler(req, res))().catch((err: unknown) => {
      console.error(`Quire Desktop: ${req.method} ${req.url} failed:`, err);
      if (res.headersSent) res.destroy();
      else res.writeHead(500, TEXT).end('Quire Desktop could not answer this request.');
    });
  };
}

/**
 * The web-mode HTTP server: the built renderer at `/`, the core router at `/trpc` and the files
 * the preview frames load at `/_quire-preview/` (preview-files.ts) on the same origin. Each request is first read by
 * {@link checkRequest}: a malformed target or Host is
 * answered 400 or 414, a Host that is not this computer 403; tRPC calls whose Origin is another
 * site are refused with 403 too (the core holds the session token: only the app's own page may call
 * it). Other methods than GET and POST on `/trpc`, GET and HEAD elsewhere, are answered 405 with
 * `Allow`, CONNECT 405 too, and a handler's unexpected error 500 ({@link answerErrors}).
 */
export function createWebServer(core: DesktopCore): http.Server {
  // Queries may come as POST (the renderer sends them so: a page's text in a query's URL would pass
  // Node's 16 KiB header limit and be answered 431), as well as GET.
  const trpc = createHTTPHandler({ router: coreRouter, basePath: '/trpc/', allowMethodOverride: true, createContext: () => core });
  const server = http.createServer(
    answerErrors(async (req, res) => {
      const request = checkRequest(req);
      if (!request.ok) {
        res.writeHead(request.status, TEXT).end(request.message);
        return;
      }
      if (request.target.startsWith('/trpc/')) {
        if (req.method !== 'GET' && req.method !== 'POST') {
          res.writeHead(405, { ...TEXT, allow: TRPC_METHODS }).end(`Only ${TRPC_METHODS} are answered here.`);
          return;
        }
        const origin = req.headers.origin;
        if (origin && origin !== `http://${request.authority}`) {
          res.writeHead(403, TEXT).end('Cross-origin calls are refused.');
          return;
        }
        // tRPC builds its URL from these two: the target in origin-form, sent to the checked authority.
        req.url = request.target;
        req.headers.host = request.authority;
        trpc(req, res);
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { ...TEXT, allow: STATIC_METHODS }).end(`Only ${STATIC_METHODS} are answered here.`);
        return;
      }
      if (request.pathname.startsWith(PREVIEW_PREFIX)) {
        const answer = await core.previewFiles.answer(request.pathname);
        if (answer.status !== 200) res.writeHead(answer.status, TEXT).end(answer.message);
        else res.writeHead(200, { ...answer.headers, 'content-length': String(answer.body.length) }).end(req.method === 'HEAD' ? undefined : answer.body);
        return;
      }
      serveRendererFile(request.pathname, req, res);
    }),
  );
  // Node closes a CONNECT connection without a word when nothing listens for it.
  server.on('connect', (_req, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  return server;
}

/**
 * Answers a file of the renderer build (404 for anything else), `pathname` decoded. `/favicon.ico`,
 * which browsers ask for by themselves, is the app's icon ({@link FAVICON}, an SVG). Only the
 * hashed files under `assets/` are cached for good; the page and the icon are revalidated.
 */
function serveRendererFile(pathname: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  const rel = pathname === '/' ? 'index.html' : pathname.slice(1);
  const file = pathname === '/favicon.ico' ? FAVICON : path.resolve(RENDERER_DIR, rel);
  if ((file !== FAVICON && !file.startsWith(RENDERER_DIR + path.sep)) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404, TEXT).end('Not found');
    return;
  }
  const headers: Record<string, string> = {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'cache-control': rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  if (rel === 'index.html') {
    headers['content-security-policy'] = APP_CSP;
    headers['x-frame-options'] = 'DENY';
  }
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // A read error (the file replaced meanwhile) or a client gone ends this answer only.
  pipeline(fs.createReadStream(file), res, (err) => {
    if (err && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') console.error(`Quire Desktop: reading ${file} failed:`, err);
  });
}
