import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { screenshot, useDesktopStack } from '../fixtures/desktop-stack';

/**
 * Quire Desktop's editor polish in Chromium (`pnpm desktop:web` against a real Quire server of its
 * own, which builds for real): lint quick fixes as Monaco code actions, "Fix all in page", next
 * problem (F8), the status bar, the command palette (Ctrl+Shift+P, Ctrl+P), toggling the preview
 * (Ctrl+K V), the preview following the editor's scroll, and publishing from the Builds panel.
 * Everything is found by role and name. Screenshots: e2e/artifacts/screenshots/desktop-editor-*.png.
 */
const SERVER_PORT = Number(process.env.QUIRE_E2E_DESKTOP_EDITOR_SERVER_PORT ?? 4393);
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_DESKTOP_EDITOR_PORT ?? 5393);
const EDITOR = { email: 'editor@desktop.test', password: 'a long desktop password', role: 'editor' } as const;

const { stack, url } = useDesktopStack({ name: 'desktop-editor', serverPort: SERVER_PORT, desktopPort: DESKTOP_PORT, projectName: 'Editor demo', projectSlug: 'editor-demo', user: EDITOR });

async function signInAndOpen(page: Page, title: string) {
  await page.goto(url());
  // the core keeps the session: only the first test signs in
  const serverUrl = page.getByLabel('Server URL');
  await expect(serverUrl.or(page.getByRole('list', { name: 'Projects' }))).toBeVisible();
  if (await serverUrl.isVisible()) {
    await serverUrl.fill(stack.serverUrl);
    await page.getByLabel('Email').fill(EDITOR.email);
    await page.getByLabel('Password').fill(EDITOR.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('list', { name: 'Projects' }).getByRole('listitem', { name: 'Editor demo' }).click();
  await page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: title, exact: true }).click();
  await expect(page.getByTitle('Preview', { exact: true }).contentFrame().getByRole('heading', { name: title, level: 1 })).toBeVisible();
}

const shot = (page: Page, name: string, testInfo: Pick<TestInfo, 'attach'>) => screenshot(page, testInfo, name);

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
  // the frame has an opaque origin (sandboxed with scripts only): read it from inside
  const inFrame = async () => (await page.locator('iframe[title="Preview"]').elementHandle())!.contentFrame();
  const scrollY = async () => (await inFrame())!.evaluate(() => window.scrollY);
  await page.keyboard.press('Control+Home');
  await expect.poll(scrollY).toBe(0);
  await page.keyboard.press('Control+End');
  await expect.poll(scrollY).toBeGreaterThan(500);
  // the block at the editor's top line is at the top of the preview
  const topVisible = await (await inFrame())!.evaluate(() => {
    const el = Array.from(document.querySelectorAll('[data-line]')).find((e) => e.getBoundingClientRect().bottom > 0);
    return el?.textContent ?? '';
  });
  expect(topVisible).toMatch(/section [45]\d/);
});

test('publishing from the Builds panel: the build\'s status and log lines live in the editor area, step timings, and Open site once deployed', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  await signInAndOpen(page, 'Quickstart');
  await page.getByRole('toolbar', { name: 'Activity' }).getByRole('button', { name: 'Builds' }).click();
  const builds = page.getByRole('region', { name: 'Builds' });
  await builds.getByRole('button', { name: 'Publish' }).click();
  // the build has the editor area to itself, named by its commit, never by its raw id
  const view = page.getByRole('region', { name: 'Current build' });
  const status = view.getByRole('status', { name: 'Build status' });
  await expect(status).toContainText(/Queued|Building|Deployed/);
  await expect(status).toContainText('production');
  await expect(view.getByRole('heading', { level: 2 })).not.toContainText('bld_');
  await expect(view.getByRole('log', { name: 'Build log' })).not.toBeEmpty({ timeout: 120_000 });
  await expect(status).toContainText('Deployed', { timeout: 180_000 });
  await expect(status).toContainText(/main @ [0-9a-f]{7}/);
  await expect(view.getByRole('link', { name: 'Open site' })).toHaveAttribute('href', /^http:\/\/editor-demo-docs\.localhost/);
  await expect(view.getByRole('list', { name: 'Step timings' })).toContainText(/Building: \d+\.\d s/);
  // the log is as wide as the editor area, not the side panel's 280 px
  const logBox = (await view.getByRole('log', { name: 'Build log' }).boundingBox())!;
  expect(logBox.width).toBeGreaterThan(600);
  await shot(page, 'desktop-editor-builds', testInfo);
  await expect(builds.getByRole('button', { name: 'Build preview' })).toBeEnabled();
  await expect(builds.getByRole('list', { name: 'Recent builds' })).not.toContainText('bld_');
});
