import { expect, test } from '@playwright/test';
import { screenshot, useDesktopStack } from '../fixtures/desktop-stack';

/**
 * Quire Desktop in Chromium (`pnpm desktop:web`, the renderer and the core without Electron) against
 * a real Quire server of its own: a writer signs in, opens the demo project, edits a page and sees
 * the Preview frame change, sees a lint finding and applies its Fix. Screenshots go to
 * e2e/artifacts/screenshots/desktop-*.png. The writer is made with `quire user add`, as a newcomer
 * would (README); the project through the REST API.
 */
const SERVER_PORT = Number(process.env.QUIRE_E2E_DESKTOP_SERVER_PORT ?? 4391);
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_DESKTOP_PORT ?? 5391);
const WRITER = { email: 'writer@desktop.test', password: 'a long desktop password', role: 'editor' } as const;

const { stack, url } = useDesktopStack({ name: 'desktop-authoring', serverPort: SERVER_PORT, desktopPort: DESKTOP_PORT, projectName: 'Quire demo', projectSlug: 'desktop-demo', user: WRITER });

test('a writer signs in, edits a page with a live preview and fixes a lint finding', async ({ page }, testInfo) => {
  const shoot = (name: string) => screenshot(page, testInfo, name);

  await page.goto(url());
  await page.getByLabel('Server URL').fill(stack.serverUrl);
  await page.getByLabel('Email').fill(WRITER.email);
  await page.getByLabel('Password').fill(WRITER.password);
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
