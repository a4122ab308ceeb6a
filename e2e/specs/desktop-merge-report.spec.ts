import { expect, test } from '@playwright/test';
import { DesktopStack } from '../fixtures/desktop-stack';

/**
 * The pre-merge report of a review in Quire Desktop, against a real Quire server and one
 * `pnpm desktop:web` instance: with the server STOPPED, a writer adds a broken link and a repeated
 * word to the Quickstart page and proposes it; the review's region "Merge report" already lists the
 * page, the broken link and the new lint finding (computed offline by the desktop core). Once the
 * server is back and the outbox synced, the server's report of the review says the same.
 */
const SERVER_PORT = Number(process.env.QUIRE_E2E_REPORT_SERVER_PORT ?? 4431);
const WRITER_PORT = Number(process.env.QUIRE_E2E_REPORT_WRITER_PORT ?? 5431);
const WRITER = { email: 'writer@report.test', name: 'Wendy Writer', password: 'a long writer password', role: 'editor' } as const;
const TITLE = 'Link the missing guide';
const TYPED = 'Read the the [missing guide](/no-such-guide) next.';

const stack = new DesktopStack('desktop-merge-report', SERVER_PORT);
let url = '';
let projectId = '';

test.describe.configure({ mode: 'serial', timeout: 300_000 });
test.use({ colorScheme: 'light', viewport: { width: 1440, height: 900 } });

test.beforeAll(async () => {
  test.setTimeout(420_000);
  await stack.startServer();
  projectId = await stack.createDemoProject('Quire demo', 'desktop-report-demo');
  stack.addUser(WRITER);
  url = await stack.startDesktop(WRITER_PORT);
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
});

test('a review shows its merge report offline, and the server reports the same broken link and lint finding', async ({ page }) => {
  await page.goto(url);
  await page.getByLabel('Server URL').fill(stack.serverUrl);
  await page.getByLabel('Email').fill(WRITER.email);
  await page.getByLabel('Password').fill(WRITER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('status', { name: 'Sync status' })).toHaveText(/Synced/);
  await page.getByRole('list', { name: 'Projects' }).getByRole('listitem', { name: 'Quire demo' }).click();
  const quickstart = page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: 'Quickstart', exact: true });
  await expect(quickstart).toBeVisible({ timeout: 60_000 });

  // offline: edit and propose; the report is computed on this computer
  await stack.stopServer();
  await quickstart.click();
  const editor = page.getByRole('textbox', { name: /^Editor/ });
  await editor.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(`\n\n${TYPED}\n`);
  await page.getByRole('button', { name: 'Propose changes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Propose changes' });
  await dialog.getByLabel('Title').fill(TITLE);
  await dialog.getByRole('button', { name: 'Open review' }).click();
  await page.getByRole('toolbar', { name: 'Activity' }).getByRole('button', { name: 'Reviews' }).click();
  await page.getByRole('list', { name: 'Reviews' }).getByRole('listitem', { name: TITLE }).click();

  const report = page.getByRole('region', { name: 'Merge report' });
  await expect(report).toContainText('1 page changed', { timeout: 30_000 });
  await expect(report).toContainText('1 broken link');
  await expect(report.getByRole('listitem').filter({ hasText: /^modified Quickstart quickstart\.mdx$/ })).toBeVisible();
  await expect(report.getByRole('listitem').filter({ hasText: 'links/broken' })).toContainText('/no-such-guide');
  await expect(report.getByRole('listitem').filter({ hasText: 'prose/repeated-words' })).toBeVisible();

  // back online: the server's report of the review lists the same
  await stack.startServer();
  await page.getByRole('button', { name: 'Outbox' }).click();
  await page.getByRole('dialog', { name: 'Outbox' }).getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByRole('status', { name: 'Sync status' })).toHaveText('Synced', { timeout: 90_000 });
  const reviews = await stack.api<{ data: Array<{ id: string; title: string }> }>(`/projects/${projectId}/reviews`);
  const reviewId = reviews.data.find((r) => r.title === TITLE)!.id;
  type Finding = { ruleId: string; message: string };
  const server = (await stack.api<{ data: { brokenLinks: Finding[]; lint: { added: Finding[] } } }>(`/projects/${projectId}/reviews/${reviewId}/report`)).data;
  expect(server.brokenLinks.map((f) => f.message)).toEqual([expect.stringContaining('/no-such-guide')]);
  expect(server.lint.added.map((f) => f.ruleId)).toContain('prose/repeated-words');
});
