import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { makeGitRepo } from '../fixtures/git-repo';

/**
 * Quire Desktop's editor polish in Chromium (`pnpm desktop:web` against a real Quire server of its
 * own, which builds for real): lint quick fixes as Monaco code actions, "Fix all in page", next
 * problem (F8), the status bar, the command palette (Ctrl+Shift+P, Ctrl+P), toggling the preview
 * (Ctrl+K V), the preview following the editor's scroll, and publishing from the Builds panel.
 * Everything is found by role and name. Screenshots: e2e/artifacts/screenshots/desktop-editor-*.png.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const SHOTS_DIR = path.join(here, '..', 'artifacts', 'screenshots');
const SERVER_PORT = Number(process.env.QUIRE_E2E_DESKTOP_EDITOR_SERVER_PORT ?? 4393);
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_DESKTOP_EDITOR_PORT ?? 5393);
const SERVER_URL = `http://127.0.0.1:${SERVER_PORT}`;
const ADMIN_KEY = `quire_e2edesked_${'e'.repeat(40)}`;
const EMAIL = 'editor@desktop.test';
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
  const dataDir = temp('quire-e2e-desktop-editor-server-');
  const env = { ...process.env, QUIRE_DATA_DIR: dataDir, QUIRE_ADMIN_KEY: ADMIN_KEY, QUIRE_ALLOW_FILE_REPOS: '1', QUIRE_LOG_LEVEL: 'warn' };
  fs.mkdirSync(path.join(here, '..', 'artifacts'), { recursive: true });
  const log = fs.openSync(path.join(here, '..', 'artifacts', 'desktop-editor-server.log'), 'w');
  server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'src', 'server.ts')], {
    cwd: root,
    env: { ...env, PORT: String(SERVER_PORT), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
  });
  await waitFor('the Quire server', async () => (await fetch(`${SERVER_URL}/v1/openapi.json`)).ok, server, 60_000);

  const repo = makeGitRepo(path.join(root, 'examples', 'demo-docs'), 'desktop-editor-demo');
  temps.push(repo);
  const res = await fetch(`${SERVER_URL}/v1/projects`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Editor demo', slug: 'editor-demo', repoUrl: repo, repoBranch: 'main' }),
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
    env: { ...process.env, QUIRE_DESKTOP_PORT: String(DESKTOP_PORT), QUIRE_DESKTOP_DATA_DIR: temp('quire-e2e-desktop-editor-data-') },
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

async function signInAndOpen(page: Page, title: string) {
  await page.goto(desktopUrl);
  // the core keeps the session: only the first test signs in
  const serverUrl = page.getByLabel('Server URL');
  await expect(serverUrl.or(page.getByRole('list', { name: 'Projects' }))).toBeVisible();
  if (await serverUrl.isVisible()) {
    await serverUrl.fill(SERVER_URL);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('list', { name: 'Projects' }).getByRole('listitem', { name: 'Editor demo' }).click();
  await page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: title, exact: true }).click();
  await expect(page.getByTitle('Preview', { exact: true }).contentFrame().getByRole('heading', { name: title, level: 1 })).toBeVisible();
}

const shot = async (page: Page, name: string, testInfo: { attach(name: string, o: { path: string; contentType: string }): Promise<void> }) => {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
};

test('lint in the editor: a quick fix from the lightbulb menu (Ctrl+.), next problem (F8), Fix all in page, and the status bar', async ({ page }, testInfo) => {
  await signInAndOpen(page, 'Quickstart');
  const editor = page.getByRole('textbox', { name: /^Editor/ });
  const problems = page.getByRole('region', { name: 'Problems' });
  const status = page.getByRole('contentinfo', { name: 'Status bar' }).or(page.locator('footer[aria-label="Status bar"]'));
  await expect(status).toContainText(/main @ [0-9a-f]{7}/);
  await expect(status).toContainText(/\d+ words, \d+ min read/);

  await editor.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n\nWe ship it and and test it.\n');
  const repeated = problems.getByRole('listitem').filter({ hasText: '"and" is repeated' });
  await expect(repeated).toHaveCount(1);

  // F8 goes to the next problem: the caret lands on the finding's line (the status bar says where)
  await page.keyboard.press('Control+Home');
  const where = (await repeated.getByRole('button', { name: /^Go to line/ }).getAttribute('aria-label'))!;
  const line = /line (\d+)/.exec(where)![1];
  for (let i = 0; i < 6 && !((await status.textContent()) ?? '').includes(`Ln ${line},`); i++) await page.keyboard.press('F8');
  await expect(status).toContainText(`Ln ${line},`);

  // the quick fix from Monaco's code action menu
  await page.keyboard.press('Control+.');
  const fix = page.getByRole('option', { name: /^Fix: / });
  await expect(fix.first()).toBeVisible();
  await shot(page, 'desktop-editor-quick-fix', testInfo);
  await fix.first().click();
  await expect(repeated).toHaveCount(0);
  const preview = page.getByTitle('Preview', { exact: true }).contentFrame();
  await expect(preview.getByText('We ship it and test it.')).toBeVisible();

  // Fix all in page: two fixable findings at once
  await editor.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nThe the docs are are ready.\n');
  await expect(problems.getByRole('listitem').filter({ hasText: 'is repeated' })).toHaveCount(2);
  await problems.getByRole('button', { name: 'Fix all in page' }).click();
  await expect(problems.getByRole('listitem').filter({ hasText: 'is repeated' })).toHaveCount(0);
  await expect(preview.getByText('The docs are ready.')).toBeVisible();
  await expect(status).toContainText(/fix(es)? applied/);
});

test('the command palette lists every command with its shortcut, runs one, and jumps to a page by title; Ctrl+K V toggles the preview', async ({ page }, testInfo) => {
  await signInAndOpen(page, 'Quickstart');
  await page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: 'Quickstart', exact: true }).focus();

  await page.keyboard.press('Control+Shift+P');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toBeVisible();
  const input = palette.getByRole('combobox');
  await expect(input).toBeFocused();
  const options = palette.getByRole('listbox').getByRole('option');
  for (const [name, key] of [
    ['Save', 'Ctrl+S'],
    ['Propose changes', 'Ctrl+Alt+P'],
    ['Go to next problem', 'F8'],
    ['Toggle preview', 'Ctrl+K V'],
    ['Fix all in page', 'Ctrl+Alt+F'],
    ['Publish', ''],
    ['Go to page by title', 'Ctrl+P'],
  ] as const)
    await expect(options.filter({ hasText: name }).first()).toContainText(key);
  await shot(page, 'desktop-editor-palette', testInfo);
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();

  // a command run from the palette
  await page.keyboard.press('Control+Shift+P');
  await input.fill('toggle prev');
  await expect(options).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByTitle('Preview', { exact: true })).toHaveCount(0);
  // Ctrl+K V brings it back (from outside the editor) and hides it again from inside it
  await page.getByRole('region', { name: 'Problems' }).getByRole('heading').click();
  await page.keyboard.press('Control+K');
  await page.keyboard.press('v');
  await expect(page.getByTitle('Preview', { exact: true })).toHaveCount(1);
  await page.getByRole('textbox', { name: /^Editor/ }).focus();
  await page.keyboard.press('Control+K');
  await page.keyboard.press('v');
  await expect(page.getByTitle('Preview', { exact: true })).toHaveCount(0);
  await page.keyboard.press('Control+K');
  await page.keyboard.press('v');
  await expect(page.getByTitle('Preview', { exact: true })).toHaveCount(1);

  // Ctrl+P: a page by title
  await page.keyboard.press('Control+P');
  await expect(palette).toBeVisible();
  await palette.getByRole('combobox', { name: 'Go to page' }).fill('code blocks');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('File', { exact: true })).toHaveText('writing/code-blocks.mdx');
  await expect(page.getByTitle('Preview', { exact: true }).contentFrame().getByRole('heading', { name: 'Code blocks', level: 1 })).toBeVisible();
});

test('the preview follows the editor\'s scroll to the block of its top line', async ({ page }) => {
  await signInAndOpen(page, 'Quickstart');
  const editor = page.getByRole('textbox', { name: /^Editor/ });
  await editor.focus();
  await page.keyboard.press('Control+End');
  const long = Array.from({ length: 60 }, (_, i) => `## Added section ${i}\n\nA paragraph of section ${i}.\n`).join('\n');
  await page.keyboard.insertText(`\n\n${long}`);
  const frame = page.getByTitle('Preview', { exact: true }).contentFrame();
  await expect(frame.getByText('A paragraph of section 59.')).toBeAttached();
  const scrollY = () => page.evaluate(() => (document.querySelector('iframe[title="Preview"]') as HTMLIFrameElement).contentWindow!.scrollY);
  await page.keyboard.press('Control+Home');
  await expect.poll(scrollY).toBe(0);
  await page.keyboard.press('Control+End');
  await expect.poll(scrollY).toBeGreaterThan(500);
  // the block at the editor's top line is at the top of the preview
  const topVisible = await page.evaluate(() => {
    const doc = (document.querySelector('iframe[title="Preview"]') as HTMLIFrameElement).contentDocument!;
    const el = Array.from(doc.querySelectorAll('[data-line]')).find((e) => e.getBoundingClientRect().bottom > 0);
    return el?.textContent ?? '';
  });
  expect(topVisible).toMatch(/section [45]\d/);
});

test('publishing from the Builds panel: the build\'s status and log lines live, step timings, and Open site once deployed', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  await signInAndOpen(page, 'Quickstart');
  await page.getByRole('toolbar', { name: 'Activity' }).getByRole('button', { name: 'Builds' }).click();
  const builds = page.getByRole('region', { name: 'Builds' });
  await builds.getByRole('button', { name: 'Publish' }).click();
  const status = builds.getByRole('status', { name: 'Build status' });
  await expect(status).toContainText(/Queued|Building|Deployed/);
  await expect(status).toContainText('production');
  await expect(builds.getByRole('log', { name: 'Build log' })).not.toBeEmpty({ timeout: 120_000 });
  await expect(status).toContainText('Deployed', { timeout: 180_000 });
  await expect(builds.getByRole('link', { name: 'Open site' })).toHaveAttribute('href', /^http:\/\/editor-demo-docs\.localhost/);
  await expect(builds.getByRole('list', { name: 'Step timings' })).toContainText(/Building: \d+\.\d s/);
  await shot(page, 'desktop-editor-builds', testInfo);
  await expect(builds.getByRole('button', { name: 'Build preview' })).toBeEnabled();
});
