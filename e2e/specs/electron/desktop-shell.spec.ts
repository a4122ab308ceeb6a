import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { findElectron } from '../../../desktop/scripts/electron-binary.mjs';

/**
 * Quire Desktop in Electron (the `electron` project of playwright.config.ts): the bundled shell
 * (desktop/dist/main/main.js, built here with desktop/scripts/build-electron.ts) launched through
 * Playwright's `_electron`. It checks what only Electron has: the window is sandboxed (no Node, only
 * the tRPC bridge from the preload), the renderer reaches the core over IPC (a sign-in to an
 * unreachable server answers with the core's error), and window.open opens nothing.
 * The authoring and review flows run in Chromium against `desktop:web` (desktop-*.spec.ts).
 * On machines without an Electron binary (none can be downloaded: offline-toolchain.md) it is skipped.
 */
const electron = findElectron();
const SKIP_REASON = `No Electron binary on this machine: ${'missing' in electron ? electron.missing : ''}. Install one (node desktop/node_modules/electron/install.js) or set QUIRE_ELECTRON_DIST to an unpacked Electron 45.`;
// The list reporter does not print skip reasons: say it once, from the runner (workers have an index).
if (!('binary' in electron) && process.env.TEST_WORKER_INDEX === undefined) console.log(`[electron] skipped: ${SKIP_REASON}`);
test.skip(!('binary' in electron), SKIP_REASON);

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..', '..');
const desktop = path.join(root, 'desktop');

let app: ElectronApplication;
let win: Page;
let userData: string;

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  if (!('binary' in electron)) return;
  const vite = spawnSync(process.execPath, [path.join(desktop, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: desktop, stdio: 'inherit' });
  expect(vite.status, 'the renderer builds').toBe(0);
  const shell = spawnSync(process.execPath, ['--import', 'tsx', path.join(desktop, 'scripts', 'build-electron.ts')], { cwd: root, stdio: 'inherit' });
  expect(shell.status, 'the shell bundles build').toBe(0);
  userData = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-e2e-electron-'));
  app = await _electron.launch({
    executablePath: electron.binary,
    args: [path.join(desktop, 'dist', 'main', 'main.js'), `--user-data-dir=${userData}`, '--no-sandbox', '--disable-gpu'],
    cwd: desktop,
  });
  win = await app.firstWindow();
});

test.afterAll(async () => {
  await app?.close();
  if (userData) fs.rmSync(userData, { recursive: true, force: true });
});

test('opens one sandboxed window whose page sees only the tRPC bridge', async () => {
  await expect(win.getByRole('heading', { name: 'Sign in to Quire' })).toBeVisible();
  const globals = await win.evaluate(() => ({
    bridge: typeof (window as unknown as { electronTRPC?: unknown }).electronTRPC,
    require: typeof (window as unknown as { require?: unknown }).require,
    process: typeof (window as unknown as { process?: unknown }).process,
  }));
  expect(globals).toEqual({ bridge: 'object', require: 'undefined', process: 'undefined' });
  expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  await fs.promises.mkdir(path.join(here, '..', '..', 'artifacts', 'screenshots'), { recursive: true });
  await win.screenshot({ path: path.join(here, '..', '..', 'artifacts', 'screenshots', 'desktop-electron-sign-in.png') });
});

test('reaches the core over IPC: signing in to an unreachable server answers with its error', async () => {
  await win.getByLabel('Server URL').fill('http://127.0.0.1:9');
  await win.getByLabel('Email').fill('writer@example.com');
  await win.getByLabel('Password').fill('a long password');
  await win.getByRole('button', { name: 'Sign in' }).click();
  await expect(win.getByRole('alert')).toBeVisible();
});

test('window.open opens no window', async () => {
  await win.evaluate(() => window.open('about:blank', '_blank'));
  await win.waitForTimeout(500);
  expect(app.windows()).toHaveLength(1);
});
