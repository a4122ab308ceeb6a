import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { makeGitRepo } from '../fixtures/git-repo';

/**
 * Quire Desktop in Chromium (`pnpm desktop:web`, the renderer and the core without Electron) against
 * a real Quire server of its own: a writer signs in, opens the demo project, edits a page and sees
 * the Preview frame change, sees a lint finding and applies its Fix. Screenshots go to
 * e2e/artifacts/screenshots/desktop-*.png. The writer is made with `quire user add`, as a newcomer
 * would (README); the project through the REST API.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const SHOTS_DIR = path.join(here, '..', 'artifacts', 'screenshots');
const SERVER_PORT = Number(process.env.QUIRE_E2E_DESKTOP_SERVER_PORT ?? 4391);
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_DESKTOP_PORT ?? 5391);
const SERVER_URL = `http://127.0.0.1:${SERVER_PORT}`;
const ADMIN_KEY = `quire_e2edesk_${'d'.repeat(40)}`;
const EMAIL = 'writer@desktop.test';
const PASSWORD = 'a long desktop password';

let server: ChildProcess | undefined;
let desktop: ChildProcess | undefined;
let desktopUrl = '';
const temps: string[] = [];

function temp(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

async function waitFor(what: string, check: () => Promise<boolean>, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not start within ${timeoutMs / 1000} s`);
}

test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.use({ colorScheme: 'light', viewport: { width: 1440, height: 900 } });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const dataDir = temp('quire-e2e-desktop-server-');
  const env = { ...process.env, QUIRE_DATA_DIR: dataDir, QUIRE_ADMIN_KEY: ADMIN_KEY, QUIRE_ALLOW_FILE_REPOS: '1', QUIRE_LOG_LEVEL: 'warn' };
  fs.mkdirSync(path.join(here, '..', 'artifacts'), { recursive: true });
  const log = fs.openSync(path.join(here, '..', 'artifacts', 'desktop-server.log'), 'w');
  server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'src', 'server.ts')], {
    cwd: root,
    env: { ...env, PORT: String(SERVER_PORT), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
  });
  await waitFor('the Quire server', async () => (await fetch(`${SERVER_URL}/v1/openapi.json`)).ok, server, 60_000);

  const repo = makeGitRepo(path.join(root, 'examples', 'demo-docs'), 'desktop-demo');
  temps.push(repo);
  const res = await fetch(`${SERVER_URL}/v1/projects`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Quire demo', slug: 'desktop-demo', repoUrl: repo, repoBranch: 'main' }),
  });
  expect(res.status, await res.clone().text()).toBe(201);

  const add = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'src', 'cli', 'index.ts'), 'user', 'add', EMAIL, '--role', 'editor'], {
    cwd: root,
    env,
    input: `${PASSWORD}\n`,
    encoding: 'utf8',
  });
  expect(add.status, add.stderr).toBe(0);

  desktop = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'desktop', 'src', 'core', 'web.ts')], {
    cwd: root,
    env: { ...process.env, QUIRE_DESKTOP_PORT: String(DESKTOP_PORT), QUIRE_DESKTOP_DATA_DIR: temp('quire-e2e-desktop-data-') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<string>((resolve, reject) => {
    let out = '';
    desktop!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /^Quire Desktop: (\S+)$/m.exec(out);
      if (m) resolve(m[1]!);
    });
    desktop!.once('exit', (code) => reject(new Error(`pnpm desktop:web exited with code ${code}: ${out}`)));
  });
  desktopUrl = await Promise.race([ready, new Promise<string>((_, reject) => setTimeout(() => reject(new Error('desktop:web did not print its URL within 180 s')), 180_000))]);
});

/** Stops a child with SIGTERM, and SIGKILL when it has not exited within 15 s. */
async function stop(child: ChildProcess | undefined, name: string): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    console.warn(`${name} did not stop within 15 s of SIGTERM; killing it`);
    child.kill('SIGKILL');
  }, 15_000);
  await exited;
  clearTimeout(timer);
}

test.afterAll(async () => {
  test.setTimeout(60_000);
  await Promise.all([stop(desktop, 'desktop:web'), stop(server, 'the Quire server')]);
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

test('a writer signs in, edits a page with a live preview and fixes a lint finding', async ({ page }, testInfo) => {
  const shoot = async (name: string) => {
    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    const file = path.join(SHOTS_DIR, `${name}.png`);
    await page.screenshot({ path: file });
    await testInfo.attach(name, { path: file, contentType: 'image/png' });
  };

  await page.goto(desktopUrl);
  await page.getByLabel('Server URL').fill(SERVER_URL);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page.getByRole('status', { name: 'Sync status' })).toHaveText(/Synced/);
  await page.getByRole('list', { name: 'Projects' }).getByRole('listitem', { name: 'Quire demo' }).click();

  const tree = page.getByRole('tree', { name: 'Pages' });
  await expect(tree.getByRole('treeitem', { name: 'Writing pages', exact: true })).toBeVisible();
  await tree.getByRole('treeitem', { name: 'Quickstart', exact: true }).click();

  const preview = page.getByTitle('Preview', { exact: true }).contentFrame();
  await expect(preview.getByRole('heading', { name: 'Quickstart', level: 1 })).toBeVisible();
  await shoot('desktop-editor');

  const editor = page.getByRole('textbox', { name: /^Editor/ });
  await editor.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n\nTyped in the desktop app, and the the preview follows.\n');
  await expect(preview.getByText('Typed in the desktop app')).toBeVisible();

  const problems = page.getByRole('region', { name: 'Problems' });
  const repeated = problems.getByRole('listitem').filter({ hasText: '"the" is repeated' });
  await expect(repeated).toHaveCount(1);
  await shoot('desktop-problems');
  await repeated.getByRole('button', { name: 'Fix' }).click();
  await expect(repeated).toHaveCount(0);
  await expect(preview.getByText('Typed in the desktop app, and the preview follows.')).toBeVisible();
  await shoot('desktop-fixed');
});
