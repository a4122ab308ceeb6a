/**
 * The Electron shell (thin; cannot run on machines without an Electron binary, see
 * offline-toolchain.md): one window with contextIsolation, sandbox and no Node integration, a
 * strict CSP, navigation and window.open blocked, and the core's tRPC router served over IPC
 * (trpc-electron, which supports tRPC 11). The core runs in this process; the session token is
 * kept with safeStorage (OS keychain). The renderer is loaded from `file:`; the preview frames'
 * root-relative URLs under `/_quire-preview/` (preview-urls.ts) are answered by the core's
 * preview-files.ts, as the web server does in web mode.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, Menu, net, protocol, session, shell } from 'electron';
import { createIPCHandler } from 'trpc-electron/main';
import { createCore } from '../core/compose';
import { PREVIEW_PREFIX } from '../core/preview-urls';
import { coreRouter } from '../core/router';
import { APP_CSP } from '../core/web-server';
import { safeStorageVault } from './safe-storage-vault';

const here = path.dirname(fileURLToPath(import.meta.url));
const RENDERER_INDEX = path.join(here, '../../dist/renderer/index.html');

async function start(): Promise<void> {
  await app.whenReady();
  const dataDir = path.join(app.getPath('userData'), 'data');
  const core = createCore({ dataDir, vault: safeStorageVault(dataDir) });
  core.start();

  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [APP_CSP] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  protocol.handle('file', async (request) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(request.url).pathname);
    } catch {
      return new Response('Not found', { status: 404 });
    }
    if (!pathname.startsWith(PREVIEW_PREFIX)) return net.fetch(request, { bypassCustomProtocolHandlers: true });
    const answer = await core.previewFiles.answer(pathname);
    if (answer.status !== 200) return new Response(answer.message, { status: answer.status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    return new Response(new Uint8Array(answer.body), { status: 200, headers: answer.headers });
  });

  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 900,
    title: 'Quire',
    webPreferences: {
      preload: path.join(here, '../preload/preload.cjs'),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webviewTag: false,
    },
  });
  // Navigation away from the app and new windows are refused; http(s) links open in the browser.
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  createIPCHandler({ router: coreRouter, windows: [win], createContext: async () => core });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate([
      { role: 'fileMenu' },
      { role: 'editMenu' },
      { role: 'viewMenu' },
      { role: 'windowMenu' },
    ]),
  );
  await win.loadFile(RENDERER_INDEX);
  app.on('window-all-closed', () => {
    void core.close().finally(() => app.quit());
  });
}

void start();
