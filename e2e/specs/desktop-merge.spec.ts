import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { screenshot, useDesktopStack } from '../fixtures/desktop-stack';

/**
 * Merging from Quire Desktop against a real Quire server and one `pnpm desktop:web` instance: a
 * writer (editor) edits the Quickstart page and proposes it, the organization's owner approves it
 * (REST, admin key), the writer's app shows "Merge" on the approved review, merges it, follows the
 * production build it started to "Deployed" and opens the live site, which then serves the change;
 * the review leaves the list of open reviews. Screenshots: e2e/artifacts/screenshots/desktop-merge-*.png.
 */
const SERVER_PORT = Number(process.env.QUIRE_E2E_MERGE_SERVER_PORT ?? 4411);
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_MERGE_DESKTOP_PORT ?? 5411);
const WRITER = { email: 'writer@merge.test', name: 'Wendy Writer', password: 'a long writer password', role: 'editor' } as const;
const SLUG = 'merge-demo';
const TITLE = 'Say how publishing works';
const TYPED = 'Merged from the desktop app and published.';

const { stack, url } = useDesktopStack({ name: 'desktop-merge', serverPort: SERVER_PORT, desktopPort: DESKTOP_PORT, projectName: 'Merge demo', projectSlug: SLUG, user: WRITER });

test('an approved review is merged with "Merge" and the published site serves the change', async ({ page }, testInfo) => {
  test.setTimeout(360_000);
  const projects = await stack.api<{ data: Array<{ id: string; slug: string; repoUrl: string }> }>('/projects');
  const project = projects.data.find((p) => p.slug === SLUG)!;
  // the demo repository has `main` checked out: let the merge's push update it
  execFileSync('git', ['config', 'receive.denyCurrentBranch', 'updateInstead'], { cwd: project.repoUrl });

  await page.goto(url());
  await page.getByLabel('Server URL').fill(stack.serverUrl);
  await page.getByLabel('Email').fill(WRITER.email);
  await page.getByLabel('Password').fill(WRITER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('list', { name: 'Projects' }).getByRole('listitem', { name: 'Merge demo' }).click();
  const quickstart = page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: 'Quickstart', exact: true });
  await quickstart.click();
  const editor = page.getByRole('textbox', { name: /^Editor/ });
  await editor.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(`\n\n${TYPED}\n`);
  await expect(page.getByTitle('Preview', { exact: true }).contentFrame().getByText(TYPED)).toBeVisible();

  await page.getByRole('button', { name: 'Propose changes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Propose changes' });
  await dialog.getByLabel('Title').fill(TITLE);
  await dialog.getByRole('button', { name: 'Open review' }).click();
  const list = page.getByRole('list', { name: 'Reviews' });
  const item = list.getByRole('listitem', { name: TITLE });
  await expect(item).toBeVisible();
  await expect(item.getByText('pending')).toHaveCount(0, { timeout: 60_000 });
  // not approved yet: no Merge
  const review = page.getByRole('region', { name: `Review: ${TITLE}` });
  await expect(review.getByRole('button', { name: 'Merge', exact: true })).toHaveCount(0);

  // the owner approves it on the server
  const reviews = await stack.api<{ data: Array<{ id: string; title: string }> }>(`/projects/${project.id}/reviews`);
  const reviewId = reviews.data.find((r) => r.title === TITLE)!.id;
  const approved = await stack.call('PATCH', `/projects/${project.id}/reviews/${reviewId}`, { status: 'approved' });
  expect(approved.status, approved.text).toBe(200);
  await page.getByRole('button', { name: 'Outbox' }).click();
  await page.getByRole('dialog', { name: 'Outbox' }).getByRole('button', { name: 'Sync now' }).click();
  await page.getByRole('button', { name: 'Outbox' }).click();
  await expect(review.getByText('Approved', { exact: true })).toBeVisible({ timeout: 30_000 });
  await screenshot(page, testInfo, 'desktop-merge-approved');

  await review.getByRole('button', { name: 'Merge', exact: true }).click();
  await expect(review.getByText('Merged', { exact: true })).toBeVisible({ timeout: 60_000 });
  const build = review.getByRole('status', { name: 'Production build' });
  await expect(build).toContainText(/Queued|Building|Deployed/);
  await expect(build).toContainText('Deployed', { timeout: 240_000 });
  const live = review.getByRole('link', { name: 'Open live site' });
  await expect(live).toHaveAttribute('href', new RegExp(`^http://${SLUG}-docs\\.localhost`));
  // merged reviews leave the list of open reviews
  await expect(item).toHaveCount(0, { timeout: 30_000 });
  await screenshot(page, testInfo, 'desktop-merge-deployed');

  const site = await page.context().newPage();
  await site.goto(new URL('/quickstart', (await live.getAttribute('href'))!).href);
  await expect(site.getByText(TYPED)).toBeVisible();
  await site.close();
  const merged = await stack.api<{ data: { status: string; mergeCommit?: string } }>(`/projects/${project.id}/reviews/${reviewId}`);
  expect(merged.data.status).toBe('merged');
  expect(execFileSync('git', ['show', 'HEAD:quickstart.mdx'], { cwd: project.repoUrl, encoding: 'utf8' })).toContain(TYPED);
});
