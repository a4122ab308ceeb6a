import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectron, type ElectronBuildOutput } from '../scripts/build-electron';

/**
 * The Electron shell's esbuild bundles (scripts/build-electron.ts), built into a temp dir. No
 * Electron binary exists on these machines, so the main bundle is started under plain Node with a
 * stand-in for Electron's API (fixtures written below): it must open one sandboxed window on the
 * built renderer with the bundled preload, and the preview worker bundle must render a page.
 */
const desktopDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let outDir: string;
let out: ElectronBuildOutput;

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-electron-build-'));
  out = await buildElectron(path.join(outDir, 'dist'));
  // As in desktop/dist (and the packaged app), packages left external resolve from node_modules beside it.
  fs.symlinkSync(path.join(desktopDir, 'node_modules'), path.join(outDir, 'node_modules'), 'dir');
});

afterAll(() => {
  fs.rmSync(outDir, { recursive: true, force: true });
});

/** Every module specifier the bundle requires (also through esbuild's `__require`) or imports, with how. */
function moduleRefs(code: string): string[] {
  const refs = [...code.matchAll(/(?:\b|__)require\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => `require ${m[1]}`);
  for (const m of code.matchAll(/^\s*import\s[^;]*?\sfrom\s*"([^"]+)"|^\s*import\s*"([^"]+)"/gm)) refs.push(`import ${m[1] ?? m[2]}`);
  return refs;
}

describe('the Electron shell bundles', () => {
  it('writes main.js, the preview worker and ONE CommonJS preload that requires nothing but electron', () => {
    for (const file of [out.main, out.previewWorker, out.preload]) expect(fs.existsSync(file), file).toBe(true);
    expect(fs.readdirSync(path.dirname(out.preload))).toEqual(['preload.cjs']);
    const preload = fs.readFileSync(out.preload, 'utf8');
    expect(preload).toContain('exposeInMainWorld("electronTRPC"');
    expect(preload).not.toMatch(/^\s*(import|export)\s/m);
    expect(new Set(moduleRefs(preload))).toEqual(new Set(['require electron']));
  });

  it('keeps electron and better-sqlite3 external in main.js and bundles everything else', () => {
    const main = fs.readFileSync(out.main, 'utf8');
    // Nothing of the electron npm package (whose index.js downloads a binary) is inlined.
    expect(main).not.toMatch(/node_modules\/electron\//);
    const external = moduleRefs(main).filter((r) => !/ node:|^require (tty|util|os|path|fs|process|buffer|url|crypto|events|stream|assert|module|child_process|worker_threads)$/.test(r));
    expect(new Set(external)).toEqual(new Set(['import electron', 'require electron', 'import better-sqlite3']));
    // The ES imports of electron name only main-process APIs (a renderer API would fail to link).
    const named = [...main.matchAll(/^import\s*\{([^}]*)\}\s*from\s*"electron"/gm)].flatMap((m) => m[1]!.split(',').map((s) => s.trim().split(/\s+as\s+/)[0]));
    expect(named.sort()).toEqual(['BrowserWindow', 'Menu', 'app', 'net', 'protocol', 'safeStorage', 'session', 'shell']);
  });

  it('renders a preview with the bundled worker', async () => {
    const worker = new Worker(out.previewWorker);
    try {
      const result = await new Promise<{ ok: boolean; title?: string; html?: string }>((resolve, reject) => {
        worker.on('message', (msg: { result: { ok: boolean } }) => resolve(msg.result));
        worker.on('error', reject);
        const files = { 'docs.json': JSON.stringify({ name: 'Bundle', theme: 'mint', navigation: { pages: ['index'] } }), 'index.mdx': '# Old' };
        worker.postMessage({ type: 'load', key: 'p', files });
        worker.postMessage({ type: 'render', id: 1, key: 'p', path: 'index.mdx', text: '---\ntitle: Bundled page\n---\nHello from the **bundle**.', theme: 'light', glossary: [] });
      });
      expect(result).toMatchObject({ ok: true, title: 'Bundled page' });
      expect(result.html).toContain('<strong>bundle</strong>');
    } finally {
      await worker.terminate();
    }
  });

  it('starts main.js (against a stand-in for Electron) and opens one sandboxed window on the renderer', () => {
    const fixtures = path.join(outDir, 'fake-electron');
    fs.mkdirSync(fixtures);
    const report = path.join(outDir, 'window.json');
    const stub = path.join(fixtures, 'electron.cjs');
    fs.writeFileSync(
      stub,
      `const fs = require('node:fs');
const noop = () => {};
exports.app = { whenReady: async () => {}, getPath: () => ${JSON.stringify(path.join(outDir, 'user-data'))}, on: noop, quit: noop };
exports.session = { defaultSession: { webRequest: { onHeadersReceived: noop }, setPermissionRequestHandler: noop } };
exports.Menu = { buildFromTemplate: (t) => t, setApplicationMenu: noop };
exports.shell = { openExternal: async () => {} };
exports.safeStorage = { isEncryptionAvailable: () => false, encryptString: noop, decryptString: noop };
exports.ipcMain = { on: noop, removeListener: noop };
const handlers = {};
exports.protocol = { handle: (scheme, handler) => { handlers[scheme] = handler; } };
exports.net = { fetch: async (request) => new Response('app file ' + new URL(request.url).pathname) };
const answer = async (url) => { const res = await handlers.file(new Request(url)); return { status: res.status, type: res.headers.get('content-type'), text: (await res.text()).slice(0, 40) }; };
exports.BrowserWindow = class { constructor(options) { this.options = options; this.webContents = { id: 1, on: noop, setWindowOpenHandler: noop }; }
  async loadFile(file) {
    const files = { katex: await answer('file:///_quire-preview/_assets/katex.css'), outside: await answer('file:///_quire-preview/_assets/..%2f..%2fpackage.json'), app: await answer('file:///app/index.html') };
    fs.writeFileSync(${JSON.stringify(report)}, JSON.stringify({ options: this.options, file, files })); process.exit(0);
  } };
`,
    );
    fs.writeFileSync(path.join(fixtures, 'hooks.mjs'), `export async function resolve(s, c, next) { return s === 'electron' ? { url: ${JSON.stringify(`file://${stub}`)}, shortCircuit: true } : next(s, c); }\n`);
    fs.writeFileSync(
      path.join(fixtures, 'register.mjs'),
      `import Module, { register } from 'node:module';
register('./hooks.mjs', import.meta.url);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'electron' ? ${JSON.stringify(stub)} : resolve.call(this, request, ...rest); };
`,
    );
    const run = spawnSync(process.execPath, ['--import', path.join(fixtures, 'register.mjs'), out.main], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0);
    const opened = JSON.parse(fs.readFileSync(report, 'utf8')) as {
      options: { webPreferences: Record<string, unknown> };
      file: string;
      files: Record<string, { status: number; type: string | null; text: string }>;
    };
    expect(opened.options.webPreferences).toMatchObject({ contextIsolation: true, nodeIntegration: false, sandbox: true, preload: out.preload });
    expect(opened.file).toBe(path.join(outDir, 'dist', 'renderer', 'index.html'));
    // the preview frames' files are answered by the core through the file: handler; the app's own files as before
    expect(opened.files.katex).toMatchObject({ status: 200, type: 'text/css; charset=utf-8' });
    expect(opened.files.katex!.text).toContain('@font-face');
    expect(opened.files.outside).toMatchObject({ status: 404 });
    expect(opened.files.app).toMatchObject({ status: 200, text: 'app file /app/index.html' });
    // The core ran in this process: its local store was created in the app's data directory.
    expect(fs.readdirSync(path.join(outDir, 'user-data', 'data'))).toContain('quire-desktop.db');
  });
});
