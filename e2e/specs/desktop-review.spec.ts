import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { DesktopStack, screenshot } from '../fixtures/desktop-stack';

/**
 * Proposing and reviewing in Quire Desktop, also offline, against a real Quire server of its own
 * and two `pnpm desktop:web` instances (each with its own QUIRE_DESKTOP_DATA_DIR, as on two
 * computers): a writer edits the Quickstart page and proposes it ("Propose changes"); a reviewer
 * opens the review from the "Reviews" list while the server runs (so it is kept locally), then the
 * server is STOPPED, the reviewer comments on a line of the source diff and approves ("Offline",
 * "2 pending"), the server starts again on the same data, the app syncs ("Synced"), and the
 * server's REST API (admin key) holds that comment and that approval exactly once. Screenshots go to
 * e2e/artifacts/screenshots/desktop-review-*.png. Both people are made with `quire user add`.
 */
const SERVER_PORT = Number(process.env.QUIRE_E2E_REVIEW_SERVER_PORT ?? 4395);
const WRITER_PORT = Number(process.env.QUIRE_E2E_REVIEW_WRITER_PORT ?? 5395);
const REVIEWER_PORT = Number(process.env.QUIRE_E2E_REVIEW_REVIEWER_PORT ?? 5396);
const WRITER = { email: 'writer@review.test', name: 'Wendy Writer', password: 'a long writer password', role: 'editor' } as const;
const REVIEWER = { email: 'reviewer@review.test', name: 'Rita Reviewer', password: 'a long reviewer password', role: 'reviewer' } as const;
const TITLE = 'Say what the desktop app adds';
const TYPED = 'Reviewed in the desktop app, also offline.';
const COMMENT = 'Line 8 reads well; keep it.';
const PAGE = 'quickstart.mdx';
const COMMENT_LINE = 8;

const stack = new DesktopStack('desktop-review', SERVER_PORT);
const urls = { writer: '', reviewer: '' };
let projectId = '';
const api = <T>(route: string) => stack.api<T>(route);
const shooter = (page: Page, testInfo: TestInfo) => (name: string) => screenshot(page, testInfo, name);

/** Signs in to the server in a desktop app and opens the demo project. */
async function signInAndOpen(page: Page, url: string, who: { email: string; password: string }): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Server URL').fill(stack.serverUrl);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('status', { name: 'Sync status' })).toHaveText(/Synced/);
  await page.getByRole('list', { name: 'Projects' }).getByRole('listitem', { name: 'Quire demo' }).click();
  await expect(page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: 'Quickstart', exact: true })).toBeVisible();
}

test.describe.configure({ mode: 'serial', timeout: 240_000 });
test.use({ colorScheme: 'light', viewport: { width: 1440, height: 900 } });

test.beforeAll(async () => {
  test.setTimeout(420_000);
  await stack.startServer();
  projectId = await stack.createDemoProject('Quire demo', 'desktop-review-demo');
  stack.addUser(WRITER);
  stack.addUser(REVIEWER);
  // one after the other: the first start builds the renderer when its sources changed
  urls.writer = await stack.startDesktop(WRITER_PORT);
  urls.reviewer = await stack.startDesktop(REVIEWER_PORT);
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
});

test('a writer edits a page and proposes it for review', async ({ page }, testInfo) => {
  const shoot = shooter(page, testInfo);
  await signInAndOpen(page, urls.writer, WRITER);
  await page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: 'Quickstart', exact: true }).click();
  const preview = page.getByTitle('Preview', { exact: true }).contentFrame();
  await expect(preview.getByRole('heading', { name: 'Quickstart', level: 1 })).toBeVisible();
  const editor = page.getByRole('textbox', { name: /^Editor/ });
  await editor.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(`\n\n${TYPED}\n`);
  await expect(preview.getByText(TYPED)).toBeVisible();

  await page.getByRole('button', { name: 'Propose changes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Propose changes' });
  await dialog.getByLabel('Title').fill(TITLE);
  await dialog.getByLabel('Description').fill('One sentence about reviewing offline.');
  await dialog.getByRole('checkbox', { name: new RegExp(REVIEWER.name) }).check();
  await expect(dialog.getByRole('checkbox', { name: PAGE })).toBeChecked();
  await shoot('desktop-review-propose');
  await dialog.getByRole('button', { name: 'Open review' }).click();
  await expect(dialog).toBeHidden();

  // listed at once, and opened; pending until the server holds it, then its preview link
  const item = page.getByRole('list', { name: 'Reviews' }).getByRole('listitem', { name: TITLE });
  await expect(item).toBeVisible();
  await expect(page.getByRole('status', { name: 'Sync status' })).toHaveText('Synced', { timeout: 60_000 });
  await expect(item.getByText('pending')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByRole('link', { name: 'Open preview' })).toBeVisible({ timeout: 60_000 });
  // the author neither approves nor requests changes
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Request changes' })).toHaveCount(0);
  await shoot('desktop-review-proposed');

  // proposing again offers no duplicate: the page says it is already in this review
  await page.getByRole('button', { name: 'Propose changes' }).click();
  await expect(dialog.getByText(`already in review: ${TITLE}`)).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: PAGE })).not.toBeChecked();
  await expect(dialog.getByRole('status')).toHaveText('Every change is already in review: there is nothing new to propose.');
  await expect(dialog.getByRole('button', { name: 'Open review' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  const list = await api<{ data: Array<{ id: string; title: string; status: string; previewBuildId: string | null; reviewers: Array<{ email: string }> }> }>(
    `/projects/${projectId}/reviews`,
  );
  const onServer = list.data.filter((r) => r.title === TITLE);
  // previews are private by default: "Open preview" opens the built preview through a member pass, in the browser
  const buildStatus = async () => (await api<{ data: { status: string } }>(`/projects/${projectId}/builds/${onServer[0]!.previewBuildId}`)).data.status;
  await expect.poll(buildStatus, { timeout: 180_000, intervals: [1000] }).toBe('deployed');
  const opened = page.context().waitForEvent('page');
  await page.getByRole('link', { name: 'Open preview' }).click();
  const previewTab = await opened;
  await previewTab.waitForURL((url) => url.hostname.startsWith('review-') && !url.pathname.startsWith('/_quire/'));
  await previewTab.goto(new URL('/quickstart', previewTab.url()).href);
  await expect(previewTab.getByText(TYPED)).toBeVisible();
  await previewTab.close();

  expect(onServer).toHaveLength(1);
  expect(onServer[0]!.status).toBe('open');
  expect(onServer[0]!.reviewers.map((r) => r.email)).toEqual([REVIEWER.email]);
});

test('a reviewer comments on a line and approves with the server stopped; the server holds both once', async ({ page }, testInfo) => {
  const shoot = shooter(page, testInfo);
  await signInAndOpen(page, urls.reviewer, REVIEWER);
  await page.getByRole('toolbar', { name: 'Activity' }).getByRole('button', { name: 'Reviews' }).click();
  const item = page.getByRole('list', { name: 'Reviews' }).getByRole('listitem', { name: TITLE });
  await expect(item).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Requested from me' }).click();
  await expect(item).toBeVisible();
  await item.click();

  // the rendered diff: both versions by the site's engine, the new paragraph outlined as added
  const rendered = page.getByTitle(`Rendered diff: ${PAGE}`, { exact: true }).contentFrame();
  await expect(rendered.getByText(TYPED)).toBeVisible();
  await expect(rendered.locator('[data-quire-diff="added"]', { hasText: TYPED })).toHaveCount(1);
  await expect(page.getByText(/1 added, 0 changed, 0 removed blocks/)).toBeVisible();
  await rendered.locator('[data-quire-diff="added"]').scrollIntoViewIfNeeded();
  await shoot('desktop-review-rendered');
  await page.getByRole('button', { name: 'Source diff' }).click();
  // the unchanged lines above the writer's edit are folded: shown to comment on one of them
  await page.getByRole('button', { name: /^Show \d+ unchanged lines$/ }).click();
  const lineNumber = page.locator('.source-diff .editor.modified .line-numbers').filter({ hasText: new RegExp(`^\\s*${COMMENT_LINE}\\s*$`) });
  await expect(lineNumber).toBeVisible();
  await shoot('desktop-review-source');

  // the server goes away: everything below is done offline
  await stack.stopServer();
  await lineNumber.click();
  await expect(page.getByText(`New thread on line ${COMMENT_LINE} of ${PAGE}`)).toBeVisible();
  await page.getByRole('textbox', { name: 'Comment', exact: true }).fill(COMMENT);
  await page.getByRole('button', { name: 'Add comment' }).click();
  const thread = page.getByRole('article', { name: `Thread on line ${COMMENT_LINE}` });
  await expect(thread.getByText(COMMENT)).toBeVisible();
  await expect(thread.getByText('pending')).toBeVisible();
  await page.getByRole('button', { name: 'Approve' }).click();
  const status = page.getByRole('status', { name: 'Sync status' });
  await expect(status).toHaveText(/2 pending/, { timeout: 30_000 });
  await expect(status).toHaveText(/Offline/, { timeout: 30_000 });
  await expect(page.getByRole('region', { name: `Review: ${TITLE}` }).getByText('Approved', { exact: true })).toBeVisible();
  await shoot('desktop-review-offline');

  // back online: the outbox drains
  await stack.startServer();
  await page.getByRole('button', { name: 'Outbox' }).click();
  await page.getByRole('dialog', { name: 'Outbox' }).getByRole('button', { name: 'Sync now' }).click();
  await expect(status).toHaveText('Synced', { timeout: 90_000 });
  await expect(thread.getByText('pending')).toHaveCount(0, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Outbox' }).click();
  await shoot('desktop-review-synced');

  const reviews = await api<{ data: Array<{ id: string; title: string; status: string }> }>(`/projects/${projectId}/reviews`);
  const review = reviews.data.find((r) => r.title === TITLE);
  expect(review?.status).toBe('approved');
  const comments = await api<{ data: Array<{ body: string; path: string; lineStart: number; lineEnd: number; author: { email: string } | null }> }>(`/projects/${projectId}/reviews/${review!.id}/comments`);
  expect(comments.data.map((c) => ({ body: c.body, path: c.path, lineStart: c.lineStart, lineEnd: c.lineEnd, author: c.author?.email }))).toEqual([
    { body: COMMENT, path: PAGE, lineStart: COMMENT_LINE, lineEnd: COMMENT_LINE, author: REVIEWER.email },
  ]);
  const audit = await api<{ data: Array<{ action: string; actor: { email: string }; resource: { id: string }; metadata: { to?: string } }> }>(`/projects/${projectId}/audit-log?limit=100`);
  const approvals = audit.data.filter((e) => e.resource.id === review!.id && e.action === 'review.updated' && e.metadata.to === 'approved');
  expect(approvals).toHaveLength(1);
  expect(approvals[0]!.actor.email).toBe(REVIEWER.email);
});
