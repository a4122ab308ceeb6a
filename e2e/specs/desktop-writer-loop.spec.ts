import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { DesktopStack, signInAndOpen } from '../fixtures/desktop-stack';
import { readmeShot } from '../fixtures/readme-shots';

/**
 * The writer's whole loop in Quire Desktop (`pnpm desktop:web`, web mode) against a real Quire server,
 * driven by role and accessible name: a writer (editor) creates a page in a group ("New page"), types a
 * paragraph, adds an image ("Insert image" → file chooser), sees both in the live preview and proposes
 * the change ("Propose changes", the reviewer chosen by email under "Reviewers"); the reviewer approves
 * it on a desktop core of their own (a second `desktop:web` with its own data directory, as on another
 * computer); the writer merges it ("Merge"), follows the production build to "Deployed", and the
 * published site serves the new page with its text and the image (200, image/png, the same bytes).
 * Screenshots of the five steps go to e2e/artifacts/screenshots/writer-loop-*.png, and with
 * QUIRE_README_SHOTS=1 (`pnpm docs:screenshots`) to docs/images/ for the README.
 */
const SERVER_PORT = Number(process.env.QUIRE_E2E_LOOP_SERVER_PORT ?? 4461);
const WRITER_PORT = Number(process.env.QUIRE_E2E_LOOP_WRITER_PORT ?? 5461);
const REVIEWER_PORT = Number(process.env.QUIRE_E2E_LOOP_REVIEWER_PORT ?? 5462);
const WRITER = { email: 'writer@loop.test', name: 'Wendy Writer', password: 'a long writer password', role: 'editor' } as const;
const REVIEWER = { email: 'reviewer@loop.test', name: 'Rita Reviewer', password: 'a long reviewer password', role: 'reviewer' } as const;
const PROJECT = 'Loop demo';
const SLUG = 'loop-demo';
const PAGE_TITLE = 'Publishing checklist';
const PAGE_PATH = 'concepts/publishing-checklist';
const TYPED = 'Every change is reviewed before it goes live.';
const REVIEW_TITLE = 'Add the publishing checklist';
const IMAGE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'images', 'publish-flow.png');
const IMAGE_URL_PATH = '/images/publish-flow.png';
/** The alt text "Insert image" makes from the file's name (shared/src/docs/image-files.ts). */
const IMAGE_ALT = 'publish flow';

const stack = new DesktopStack('desktop-writer-loop', SERVER_PORT);
const urls = { writer: '', reviewer: '' };
let projectId = '';

const VIEWPORT = { width: 1280, height: 800 };
test.use({ colorScheme: 'light', viewport: VIEWPORT });

test.beforeAll(async () => {
  test.setTimeout(420_000);
  await stack.startServer();
  projectId = await stack.createDemoProject(PROJECT, SLUG);
  const project = await stack.api<{ data: { repoUrl: string } }>(`/projects/${projectId}`);
  // the demo repository has `main` checked out: let the merge's push update it, as `pnpm demo`'s repository does
  execFileSync('git', ['config', 'receive.denyCurrentBranch', 'updateInstead'], { cwd: project.data.repoUrl });
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

/** The open review of the loop in the Reviews view (either person's app), found by its title. */
const reviewRegion = (page: Page) => page.getByRole('region', { name: `Review: ${REVIEW_TITLE}` });

/** Clicks "Sync now" in the Outbox so the app pulls what the other desktop pushed, then closes the Outbox. */
async function syncNow(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Outbox' }).click();
  await page.getByRole('dialog', { name: 'Outbox' }).getByRole('button', { name: 'Sync now' }).click();
  await page.getByRole('button', { name: 'Outbox' }).click();
}

test('a page with an image goes from "New page" to the published site through review', async ({ page, browser }, testInfo) => {
  test.setTimeout(600_000);
  await signInAndOpen(page, urls.writer, stack.serverUrl, WRITER, PROJECT);
  const tree = page.getByRole('tree', { name: 'Pages' });
  const preview = page.getByTitle('Preview', { exact: true }).contentFrame();

  await test.step('create a page in a group', async () => {
    // a page of the group is open and drawn in the preview
    await tree.getByRole('treeitem', { name: 'Sites', exact: true }).click();
    await expect(preview.getByRole('heading', { name: 'Sites', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'New page' }).click();
    const dialog = page.getByRole('dialog', { name: 'New page' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill(PAGE_TITLE);
    await dialog.getByLabel('Group').selectOption({ label: 'Concepts (Guides)' });
    await readmeShot(page, testInfo, 'writer-loop-1-new-page');
    await dialog.getByRole('button', { name: 'Create page' }).click();
    await expect(dialog).toBeHidden();
    await expect(tree.getByRole('treeitem', { name: PAGE_TITLE, exact: true })).toHaveAttribute('aria-selected', 'true');
  });

  await test.step('write a paragraph and see it in the live preview', async () => {
    await expect(preview.getByRole('heading', { name: PAGE_TITLE, level: 1 })).toBeVisible();
    await page.getByRole('textbox', { name: /^Editor/ }).focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(`${TYPED}\n\n`);
    await expect(preview.getByText(TYPED)).toBeVisible();
  });

  await test.step('insert an image from a file', async () => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Insert image' }).click();
    await (await chooser).setFiles(IMAGE);
    await expect(page.locator('.monaco-editor .view-lines')).toContainText(`![${IMAGE_ALT}](${IMAGE_URL_PATH})`);
    const image = preview.getByRole('img', { name: IMAGE_ALT });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  });

  await test.step('the image is a change of its own, beside the page', async () => {
    const activity = page.getByRole('toolbar', { name: 'Activity' });
    await activity.getByRole('button', { name: 'Changes' }).click();
    const changes = page.getByRole('region', { name: 'Changes' });
    await expect(changes.getByRole('button', { name: `${PAGE_PATH}.mdx, Added` })).toBeVisible();
    await changes.getByRole('button', { name: /^images\/publish-flow\.png, Added, binary file/ }).click();
    const thumbnail = page.getByRole('region', { name: 'Diff of images/publish-flow.png' }).getByRole('img');
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    await readmeShot(page, testInfo, 'writer-loop-2-image');
    await activity.getByRole('button', { name: 'Pages' }).click();
    await tree.getByRole('treeitem', { name: PAGE_TITLE, exact: true }).click();
    await expect.poll(() => preview.getByRole('img', { name: IMAGE_ALT }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    await readmeShot(page, testInfo, 'writer-loop-3-preview');
  });

  await test.step('propose the change, asking the reviewer by email', async () => {
    await page.getByRole('button', { name: 'Propose changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Propose changes' });
    await dialog.getByLabel('Title').fill(REVIEW_TITLE);
    await dialog.getByRole('group', { name: 'Reviewers' }).getByRole('checkbox', { name: REVIEWER.email }).check();
    for (const file of [`${PAGE_PATH}.mdx`, 'docs.json', IMAGE_URL_PATH.slice(1)]) {
      await expect(dialog.getByRole('checkbox', { name: file, exact: true })).toBeChecked();
    }
    await dialog.getByRole('button', { name: 'Open review' }).click();
    await expect(dialog).toBeHidden();
    const item = page.getByRole('list', { name: 'Reviews' }).getByRole('listitem', { name: REVIEW_TITLE });
    await expect(item).toBeVisible();
    await expect(page.getByRole('status', { name: 'Sync status' })).toHaveText('Synced', { timeout: 60_000 });
    await expect(item.getByText('pending')).toHaveCount(0, { timeout: 30_000 });
  });

  await test.step('the reviewer approves it on their own desktop', async () => {
    const desk = await browser.newPage({ colorScheme: 'light', viewport: VIEWPORT });
    await signInAndOpen(desk, urls.reviewer, stack.serverUrl, REVIEWER, PROJECT);
    await desk.getByRole('toolbar', { name: 'Activity' }).getByRole('button', { name: 'Reviews' }).click();
    await desk.getByRole('button', { name: 'Requested from me' }).click();
    const item = desk.getByRole('list', { name: 'Reviews' }).getByRole('listitem', { name: REVIEW_TITLE });
    await expect(item).toBeVisible({ timeout: 60_000 });
    await item.click();
    const rendered = desk.getByTitle(`Rendered diff: ${PAGE_PATH}.mdx`, { exact: true }).contentFrame();
    await expect(rendered.getByText(TYPED)).toBeVisible();
    // the image comes from the change set: this desktop's copy of the project does not hold it
    const image = rendered.getByRole('img', { name: IMAGE_ALT });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    await readmeShot(desk, testInfo, 'writer-loop-4-review');
    // the image's own tab shows the image, not its bytes
    await reviewRegion(desk).getByRole('navigation', { name: 'Changed files' }).getByRole('button', { name: /images\/publish-flow\.png/ }).click();
    const alone = reviewRegion(desk).getByRole('img', { name: `The image ${IMAGE_URL_PATH.slice(1)}` });
    await expect.poll(() => alone.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    await desk.getByRole('button', { name: 'Approve' }).click();
    await expect(reviewRegion(desk).getByText('Approved', { exact: true })).toBeVisible();
    await expect(desk.getByRole('status', { name: 'Sync status' })).toHaveText('Synced', { timeout: 60_000 });
    const reviews = await stack.api<{ data: Array<{ title: string; status: string }> }>(`/projects/${projectId}/reviews`);
    expect(reviews.data.find((r) => r.title === REVIEW_TITLE)?.status).toBe('approved');
    await desk.close();
  });

  const review = reviewRegion(page);
  await test.step('the writer merges and the production build deploys', async () => {
    await syncNow(page);
    await expect(review.getByText('Approved', { exact: true })).toBeVisible({ timeout: 30_000 });
    await review.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(review.getByText('Merged', { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(review.getByRole('status', { name: 'Production build' })).toContainText('Deployed', { timeout: 240_000 });
    await readmeShot(page, testInfo, 'writer-loop-5-published');
  });

  await test.step('the published site serves the new page, its text and the image', async () => {
    const live = new URL((await review.getByRole('link', { name: 'Open live site' }).getAttribute('href'))!);
    const site = await page.context().newPage();
    await site.goto(new URL(`/${PAGE_PATH}`, live).href);
    await expect(site.getByRole('heading', { name: PAGE_TITLE, level: 1 })).toBeVisible();
    await expect(site.getByText(TYPED)).toBeVisible();
    const shown = site.getByRole('img', { name: IMAGE_ALT });
    await expect(shown).toHaveAttribute('src', IMAGE_URL_PATH);
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    // the image file itself, fetched from the site as a browser does
    const served = await site.evaluate(async (src) => {
      const res = await fetch(src, { cache: 'no-store' });
      return { status: res.status, type: res.headers.get('content-type'), bytes: Array.from(new Uint8Array(await res.arrayBuffer())) };
    }, IMAGE_URL_PATH);
    expect(served.status).toBe(200);
    expect(served.type).toMatch(/^image\/png\b/);
    expect(Buffer.from(served.bytes).equals(fs.readFileSync(IMAGE))).toBe(true);
    await site.close();
  });
});
