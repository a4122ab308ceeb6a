import { expect, test, type Page } from '@playwright/test';
import { DesktopStack, screenshot } from '../fixtures/desktop-stack';

/**
 * Navigating a long review diff in Quire Desktop, against a real Quire server of its own and one
 * `pnpm desktop:web`: a writer edits the first and the 38th paragraph of a 40-paragraph page and
 * proposes it. In the review, the unchanged paragraphs between the two changes fold behind "Show N
 * unchanged lines" (3 lines, or rendered blocks, of context kept on each side) in the rendered and in
 * the source diff; F7 twice and "Previous change" move between the two changes, announced as
 * "Change 1 of 2"; the file list counts the lines, and ticking "Viewed long.mdx" folds the file's
 * diff, also after the app is reloaded.
 */
const SERVER_PORT = Number(process.env.QUIRE_E2E_NAV_SERVER_PORT ?? 4473);
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_NAV_DESKTOP_PORT ?? 5473);
const WRITER = { email: 'writer@nav.test', name: 'Wendy Writer', password: 'a long writer password', role: 'editor' } as const;
const PROJECT = 'Long Docs';
const PAGE = 'long.mdx';
const TITLE = 'Edit both ends of the long page';
/** Paragraph k of the page is on line 3 + 2k (the frontmatter takes lines 1-3, a blank line 4). */
const PARAGRAPHS = 40;
const paragraph = (k: number) => `Paragraph ${k} of the long page.`;
const LONG_PAGE = `---\ntitle: Long page\n---\n${Array.from({ length: PARAGRAPHS }, (_, i) => `\n${paragraph(i + 1)}\n`).join('')}`;
const TOP_EDIT = ' Edited at the top.';
const END_EDIT = ' Edited near the end.';

const stack = new DesktopStack('desktop-review-navigation', SERVER_PORT);
let url = '';

test.describe.configure({ mode: 'serial', timeout: 240_000 });
test.use({ colorScheme: 'light', viewport: { width: 1440, height: 900 } });

test.beforeAll(async () => {
  test.setTimeout(420_000);
  await stack.startServer();
  await stack.deployFiles('long-docs', PROJECT, {
    'docs.json': JSON.stringify({ name: PROJECT, navigation: { groups: [{ group: 'Start', pages: ['index', 'long'] }] } }),
    'index.mdx': '---\ntitle: Welcome\n---\n\nWelcome to the long docs.\n',
    [PAGE]: LONG_PAGE,
  });
  stack.addUser(WRITER);
  url = await stack.startDesktop(DESKTOP_PORT);
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
});

/** Signs in and opens the project. */
async function signInAndOpen(page: Page): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Server URL').fill(stack.serverUrl);
  await page.getByLabel('Email').fill(WRITER.email);
  await page.getByLabel('Password').fill(WRITER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('status', { name: 'Sync status' })).toHaveText(/Synced/);
  await page.getByRole('list', { name: 'Projects' }).getByRole('listitem', { name: PROJECT }).click();
  await expect(page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: 'Long page', exact: true })).toBeVisible({ timeout: 60_000 });
}

/** Moves the editor's cursor to the end of paragraph `k` and types `text` there. */
async function appendToParagraph(page: Page, k: number, text: string): Promise<void> {
  await page.getByRole('textbox', { name: /^Editor/ }).focus();
  await page.keyboard.press('Control+Home');
  for (let line = 1; line < 3 + 2 * k; line++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.type(text);
}

test('a long diff folds its unchanged part, steps from change to change, and a viewed file folds', async ({ page }, testInfo) => {
  await signInAndOpen(page);
  await page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: 'Long page', exact: true }).click();
  await appendToParagraph(page, 1, TOP_EDIT);
  await appendToParagraph(page, 38, END_EDIT);
  await page.getByRole('button', { name: 'Propose changes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Propose changes' });
  await dialog.getByLabel('Title').fill(TITLE);
  await expect(dialog.getByRole('checkbox', { name: PAGE })).toBeChecked();
  await dialog.getByRole('button', { name: 'Open review' }).click();
  await expect(dialog).toBeHidden();
  // the server's copy (and id) first, so that "Viewed" is kept for the review as the server knows it
  await expect(page.getByRole('status', { name: 'Sync status' })).toHaveText('Synced', { timeout: 60_000 });
  const item = page.getByRole('list', { name: 'Reviews' }).getByRole('listitem', { name: TITLE });
  await expect(item.getByText('pending')).toHaveCount(0, { timeout: 30_000 });

  // the file list counts the lines: two changed lines, each once added and once removed
  const files = page.getByRole('navigation', { name: 'Changed files' });
  await expect(files.getByText('+2')).toBeVisible();
  await expect(files.getByText('−2')).toBeVisible();

  // rendered diff: paragraphs 5-34 fold (3 blocks of context next to each change), 60 source lines
  await page.getByRole('button', { name: 'Rendered diff' }).click();
  const frame = page.getByTitle(`Rendered diff: ${PAGE}`).contentFrame();
  const unfoldRendered = frame.getByRole('button', { name: 'Show 60 unchanged lines' });
  await expect(unfoldRendered).toBeVisible({ timeout: 30_000 });
  await expect(frame.getByText(paragraph(4), { exact: true })).toBeVisible();
  await expect(frame.getByText(paragraph(20), { exact: true })).toBeHidden();
  await expect(frame.getByText(paragraph(35), { exact: true })).toBeAttached();
  const position = page.getByRole('group', { name: 'Changes' });
  await expect(position).toContainText('2 changes');
  await page.keyboard.press('F7');
  await expect(position).toContainText('Change 1 of 2');
  // the focus is now in the frame, on the first change: F7 there goes on
  await page.keyboard.press('F7');
  await expect(position).toContainText('Change 2 of 2');
  await page.getByRole('button', { name: 'Previous change' }).click();
  await expect(position).toContainText('Change 1 of 2');
  await unfoldRendered.click();
  await expect(frame.getByText(paragraph(20), { exact: true })).toBeVisible();
  await expect(unfoldRendered).toHaveCount(0);
  await screenshot(page, testInfo, 'desktop-review-navigation-rendered');

  // source diff: lines 6-78 are unchanged; 3 next to each change stay, 67 fold
  await page.getByRole('button', { name: 'Source diff' }).click();
  const unfoldSource = page.getByRole('button', { name: 'Show 67 unchanged lines' });
  await expect(unfoldSource).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.source-diff .editor.modified .view-line', { hasText: paragraph(20) })).toHaveCount(0);
  await expect(position).toContainText('2 changes');
  await page.keyboard.press('F7');
  await expect(position).toContainText('Change 1 of 2');
  await page.keyboard.press('F7');
  await expect(position).toContainText('Change 2 of 2');
  await expect(page.locator('.source-diff .editor.modified .view-line', { hasText: END_EDIT.trim() })).toBeVisible();
  await page.keyboard.press('Shift+F7');
  await expect(position).toContainText('Change 1 of 2');
  await page.getByRole('button', { name: 'Next change' }).click();
  await expect(position).toContainText('Change 2 of 2');
  await page.getByRole('button', { name: 'Previous change' }).click();
  await expect(position).toContainText('Change 1 of 2');
  // side by side (a wide window), each fold is drawn on both sides but is one button
  await page.setViewportSize({ width: 2200, height: 900 });
  await expect(page.locator('.source-diff .editor.original .diff-hidden-lines')).not.toHaveCount(0);
  await expect(unfoldSource).toHaveCount(1);
  await page.setViewportSize({ width: 1440, height: 900 });
  await unfoldSource.click();
  await expect(unfoldSource).toHaveCount(0);
  await screenshot(page, testInfo, 'desktop-review-navigation-source');

  // a viewed file folds, and stays viewed after a restart of the app's page
  const viewed = files.getByRole('checkbox', { name: `Viewed ${PAGE}` });
  await viewed.check();
  await expect(page.getByText(`You marked ${PAGE} viewed: its diff is folded.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next change' })).toHaveCount(0);
  await page.reload();
  await page.getByRole('list', { name: 'Projects' }).getByRole('listitem', { name: PROJECT }).click();
  await page.getByRole('toolbar', { name: 'Activity' }).getByRole('button', { name: 'Reviews' }).click();
  await page.getByRole('list', { name: 'Reviews' }).getByRole('listitem', { name: TITLE }).click();
  await expect(page.getByRole('navigation', { name: 'Changed files' }).getByRole('checkbox', { name: `Viewed ${PAGE}` })).toBeChecked({ timeout: 30_000 });
  await expect(page.getByText(`You marked ${PAGE} viewed: its diff is folded.`)).toBeVisible();
  await page.getByRole('button', { name: 'Show diff' }).click();
  await expect(page.getByRole('button', { name: 'Next change' })).toBeVisible();
});
