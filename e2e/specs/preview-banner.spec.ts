import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { DesktopStack, screenshot } from '../fixtures/desktop-stack';
import { makeGitRepo } from '../fixtures/git-repo';

/**
 * The preview banner, as a reader of a branch preview meets it: a real Quire server of its own
 * builds the demo docs for production, then a preview of the branch `feature/login` that edits
 * the Quickstart page. The preview's pages carry a "Preview" region naming the branch, whose
 * "Changed pages" disclosure lists Quickstart as a link to the preview's page; production has no
 * banner. Previews are private by default: a visitor without a link gets the private page, and the
 * tests read the preview as a team member does, through a member pass the API gives for a page's
 * URL. Screenshots (light, dark, phone) go to e2e/artifacts/screenshots/preview-banner-*.png.
 */
const PORT = Number(process.env.QUIRE_E2E_PREVIEW_BANNER_PORT ?? 4397);
const SLUG = 'banner';
const ADDED_TEXT = 'This sentence only exists on the feature/login branch.';
const here = path.dirname(fileURLToPath(import.meta.url));
const demoDocs = path.resolve(here, '..', '..', 'examples', 'demo-docs');

const stack = new DesktopStack('preview-banner', PORT);
const production = `http://${SLUG}-docs.localhost:${PORT}`;
const preview = `http://feature-login--${SLUG}-docs.localhost:${PORT}`;
let repo = '';
let projectId = '';

/** What {@link api} answers: the status and the fields of `data` these tests read. */
type ApiAnswer = { status: number; data: { id: string; status?: string; error?: string | null; url?: string } };

/** Calls the server's REST API with the admin key; answers status and the body's `data`. */
async function api(method: string, route: string, body?: unknown): Promise<ApiAnswer> {
  const answer = await stack.call(method, route, body);
  return { status: answer.status, data: answer.json.data! };
}

/** Triggers a build and waits until it is deployed (fails on a failed build). */
async function buildAndWait(projectId: string, body: Record<string, unknown>): Promise<void> {
  const started = await api('POST', `/projects/${projectId}/builds`, body);
  expect(started.status).toBe(202);
  await expect
    .poll(async () => (await api('GET', `/projects/${projectId}/builds/${started.data.id}`)).data.status, { timeout: 180_000, intervals: [500] })
    .toMatch(/^(deployed|failed)$/);
  const done = await api('GET', `/projects/${projectId}/builds/${started.data.id}`);
  expect(done.data.error ?? null).toBeNull();
  expect(done.data.status).toBe('deployed');
}

function git(...args: string[]): void {
  execFileSync('git', args, {
    cwd: repo,
    stdio: 'pipe',
    env: { ...process.env, GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@quire.local', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@quire.local' },
  });
}

const previewRegion = (page: Page) => page.getByRole('complementary', { name: 'Preview' });

/** Opens a page of the preview as a team member: a member pass for its URL (`POST .../preview-passes`), which lands on it. */
async function openAsMember(page: Page, path: string): Promise<void> {
  const pass = await api('POST', `/projects/${projectId}/preview-passes`, { url: `${preview}${path}` });
  expect(pass.status).toBe(201);
  const res = await page.goto(pass.data.url!);
  expect(res?.status()).toBe(200);
  await expect(page).toHaveURL(`${preview}${path}`);
}

test.describe.configure({ mode: 'serial', timeout: 60_000 });
test.use({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });

test.beforeAll(async () => {
  test.setTimeout(420_000);
  await stack.startServer();
  repo = makeGitRepo(demoDocs, SLUG);
  const project = await api('POST', '/projects', { name: 'Banner docs', slug: SLUG, repoUrl: repo, repoBranch: 'main' });
  expect(project.status).toBe(201);
  projectId = project.data.id;
  await buildAndWait(project.data.id, {});
  git('checkout', '-q', '-b', 'feature/login');
  const quickstart = path.join(repo, 'quickstart.mdx');
  fs.appendFileSync(quickstart, `\n${ADDED_TEXT}\n`);
  git('commit', '-q', '-am', 'Quickstart: mention the login branch');
  await buildAndWait(project.data.id, { branch: 'feature/login', preview: true });
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
  if (repo) fs.rmSync(repo, { recursive: true, force: true });
});

test('the preview is private to a visitor without a link', async ({ page }) => {
  const res = await page.goto(`${preview}/quickstart`);
  expect(res?.status()).toBe(401);
  await expect(page.getByRole('heading', { level: 1, name: 'This preview is private' })).toBeVisible();
  await expect(page.getByText(ADDED_TEXT)).toHaveCount(0);
});

test('a preview page shows the Preview region naming the branch, with a link to production', async ({ page }, testInfo) => {
  await openAsMember(page, '/');
  const region = previewRegion(page);
  await expect(region).toBeVisible();
  await expect(region).toContainText('Preview of branch feature/login');
  // slim: one line
  expect((await region.boundingBox())!.height).toBeLessThanOrEqual(48);
  await expect(region.getByRole('link', { name: /View production/ })).toHaveAttribute('href', `${production}/`);
  await screenshot(page, testInfo, 'preview-banner-light');
});

test('opening "Changed pages" lists the changed page as a link that opens it', async ({ page }, testInfo) => {
  await openAsMember(page, '/');
  const region = previewRegion(page);
  const summary = region.getByText('Changed pages (1)');
  await expect(summary).toBeVisible();
  const changed = region.getByRole('list', { name: /Changed/ });
  await expect(changed).toBeHidden();
  await summary.click();
  await expect(changed).toBeVisible();
  await screenshot(page, testInfo, 'preview-banner-open');
  const link = changed.getByRole('link', { name: 'Quickstart' });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(`${preview}/quickstart`);
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'Quickstart' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(ADDED_TEXT);
  // on the changed page itself, its entry is marked as the current page
  await region.getByText('Changed pages (1)').click();
  await expect(region.getByRole('list', { name: /Changed/ }).getByRole('link', { name: 'Quickstart' })).toHaveAttribute('aria-current', 'page');
});

test('production pages of the same project have no banner', async ({ page }) => {
  await page.goto(`${production}/quickstart`);
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'Quickstart' })).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText(ADDED_TEXT);
  await expect(previewRegion(page)).toHaveCount(0);
});

test.describe('on a phone in dark mode', () => {
  test.use({ colorScheme: 'dark', viewport: { width: 390, height: 844 } });

  test('the banner stays one line, fits the screen and its list opens within it', async ({ page }, testInfo) => {
    await openAsMember(page, '/quickstart');
    const region = previewRegion(page);
    await expect(region).toBeVisible();
    expect((await region.boundingBox())!.height).toBeLessThanOrEqual(48);
    await region.getByText(/Changed.*\(1\)/).click();
    const list = region.getByRole('list', { name: /Changed/ });
    await expect(list).toBeVisible();
    const box = (await list.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, testInfo, 'preview-banner-phone-dark');
  });
});
