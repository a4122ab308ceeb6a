import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import type { Core } from './core';
import { coreRouter } from './router';

/** Where the built renderer lives (desktop/dist/renderer). */
export const RENDERER_DIR = fileURLToPath(new URL('../../dist/renderer', import.meta.url));
const RENDERER_SRC = fileURLToPath(new URL('../renderer', import.meta.url));

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

/**
 * Builds the renderer with Vite (offline: everything is bundled from node_modules) when
 * dist/renderer is missing or older than a source file of src/renderer.
 * @returns true when it built
 */
export async function ensureRendererBuilt(): Promise<boolean> {
  const index = path.join(RENDERER_DIR, 'index.html');
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= newestMtime(RENDERER_SRC)) return false;
  const { build } = await import('vite');
  await build({ configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)), logLevel: 'warn' });
  return true;
}

/** True for a Host header naming this computer (refuses DNS-rebinding pages). */
function isLocalHost(host: string | undefined): boolean {
  const name = (host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return name === 'localhost' || name === '127.0.0.1' || name === '::1' || name.endsWith('.localhost');
}

/**
 * The web-mode HTTP server: the built renderer at `/` and the core router at `/trpc` on the same
 * origin. Requests whose Host is not local, and tRPC calls whose Origin is another site, are
 * refused with 403 (the core holds the session token: only the app's own page may call it).
 */
export function createWebServer(core: Core): http.Server {
  const trpc = createHTTPHandler({ router: coreRouter, basePath: '/trpc/', createContext: () => ({ core }) });
  return http.createServer((req, res) => {
    if (!isLocalHost(req.headers.host)) {
      res.writeHead(403).end('Quire Desktop answers on localhost only.');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/trpc/')) {
      const origin = req.headers.origin;
      if (origin && origin !== `http://${req.headers.host}`) {
        res.writeHead(403).end('Cross-origin calls are refused.');
        return;
      }
      trpc(req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    const file = path.resolve(RENDERER_DIR, rel);
    if (!file.startsWith(RENDERER_DIR + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const headers: Record<string, string> = {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'cache-control': rel === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable',
    };
    if (rel === 'index.html') {
      headers['content-security-policy'] = APP_CSP;
      headers['x-frame-options'] = 'DENY';
    }
    res.writeHead(200, headers);
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
  });
}
