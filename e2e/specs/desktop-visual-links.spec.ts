import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { openLocalPage, writeDocsFolder } from '../fixtures/local-folder';
import { DesktopStack, screenshot } from '../fixtures/desktop-stack';
import { monacoText } from '../fixtures/monaco-text';

/**
 * Links and emphasis in Quire Desktop's visual mode (`pnpm desktop:web`, a local folder opened signed out): a writer
 * selects a word and makes it bold with the toolbar's "Bold", links another word with "Link" → "Link URL" → "Apply"
 * (a `javascript:` URL is refused with a message), changes an existing link's URL (Ctrl+K) and removes a link; MDX
 * mode then shows exactly those changes (the whole text compared), the untouched bare URL and link title as written.
 * Found by role and name.
 */
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_VISUAL_LINKS_PORT ?? 5473);

const PAGE = [
  '---',
  'title: Links',
  '---',
  '',
  'Our product ships fast and stays simple.',
  '',
  "Read the [guide](/guide 'The guide') or https://x.dev.",
  '',
  'See the [old page](/old) for history.',
  '',
].join('\n');

const stack = new DesktopStack('desktop-visual-links', 0);
let desktopUrl = '';
let folder = '';
const pageFile = () => path.join(folder, 'docs', 'links.mdx');

test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.use({ colorScheme: 'light', viewport: { width: 1600, height: 1000 } });
test.beforeAll(async () => {
  test.setTimeout(240_000);
  const nav = { name: 'Links', navigation: { groups: [{ group: 'Start', pages: ['links', 'quickstart'] }] } };
  folder = writeDocsFolder('quire-e2e-visual-links-', {
    'docs.json': JSON.stringify(nav),
    'quickstart.mdx': '---\ntitle: Quickstart\n---\n\nStart here.\n',
    'links.mdx': PAGE,
  });
  desktopUrl = await stack.startDesktop(DESKTOP_PORT);
});
test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

/** Opens the folder and the page "Links", then switches it to the visual mode. */
async function openVisual(page: Page): Promise<Locator> {
  await openLocalPage(page, desktopUrl, folder, 'Links');
  await expect(page.getByTitle('Preview', { exact: true }).contentFrame().getByRole('heading', { name: 'Links', level: 1 })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Visual', exact: true }).click();
  return page.getByRole('textbox', { name: 'Visual editor' });
}

/** Selects `word` in the editable text `block` with the keyboard (caret to the line's start, then Shift+arrows over the word). */
async function selectWord(page: Page, block: Locator, word: string): Promise<void> {
  await block.click();
  const at = (await block.textContent())!.indexOf(word);
  await page.keyboard.press('Home');
  for (let i = 0; i < at; i++) await page.keyboard.press('ArrowRight');
  for (let i = 0; i < word.length; i++) await page.keyboard.press('Shift+ArrowRight');
}

test('a writer makes a word bold, links a word, changes a link and removes one; MDX mode shows exactly those changes', async ({ page }, testInfo) => {
  const visual = await openVisual(page);
  const tools = page.getByRole('toolbar', { name: 'Block tools' });
  const bold = tools.getByRole('button', { name: 'Bold' });
  const linkForm = page.getByRole('dialog', { name: 'Link' });
  const url = linkForm.getByRole('textbox', { name: 'Link URL' });
  const first = visual.getByText('Our product ships fast and stays simple.', { exact: true });

  // Bold: the selected word becomes bold, and the button says so
  await selectWord(page, first, 'fast');
  await expect(bold).toHaveAttribute('aria-pressed', 'false');
  await bold.click();
  await expect(first.locator('b, strong')).toHaveText('fast');
  await expect(bold).toHaveAttribute('aria-pressed', 'true');

  // Link: a script URL is refused, a relative path is written as typed
  await selectWord(page, first, 'product');
  await tools.getByRole('button', { name: 'Link' }).click();
  await expect(url).toBeFocused();
  await expect(url).toHaveValue('');
  await expect(linkForm.getByRole('button', { name: 'Remove link' })).toHaveCount(0);
  await url.fill('javascript:alert(1)');
  await linkForm.getByRole('button', { name: 'Apply' }).click();
  await expect(linkForm.getByRole('alert')).toContainText('cannot be a link');
  await url.fill('/quickstart');
  await linkForm.getByRole('button', { name: 'Apply' }).click();
  await expect(linkForm).toHaveCount(0);
  await expect(visual.getByRole('link', { name: 'product' })).toHaveAttribute('href', '/quickstart');
  await expect(first).toBeFocused();

  // Ctrl+K in a link: the form shows its URL, which is changed
  await visual.getByRole('link', { name: 'guide' }).click();
  await page.keyboard.press('Control+k');
  await expect(url).toHaveValue('/guide');
  await url.fill('/guides/start');
  await screenshot(page, testInfo, 'desktop-visual-links-form');
  await url.press('Enter');
  await expect(linkForm).toHaveCount(0);
  await expect(visual.getByRole('link', { name: 'guide' })).toHaveAttribute('href', '/guides/start');

  // Escape closes the form and gives the focus back to the block; "Remove link" unwraps the link
  const third = visual.getByText('See the old page for history.', { exact: true });
  await visual.getByRole('link', { name: 'old page' }).click();
  await page.keyboard.press('Control+k');
  await expect(url).toHaveValue('/old');
  await page.keyboard.press('Escape');
  await expect(linkForm).toHaveCount(0);
  await expect(third).toBeFocused();
  await tools.getByRole('button', { name: 'Link' }).click();
  await linkForm.getByRole('button', { name: 'Remove link' }).click();
  await expect(visual.getByRole('link', { name: 'old page' })).toHaveCount(0);
  await expect(third).toBeFocused();

  const expected = PAGE.replace('Our product ships fast', 'Our [product](/quickstart) ships **fast**')
    .replace("[guide](/guide 'The guide')", '[guide](/guides/start "The guide")')
    .replace('[old page](/old)', 'old page');
  await page.getByRole('button', { name: 'MDX', exact: true }).click();
  await expect(visual).toHaveCount(0);
  await expect.poll(() => monacoText(page)).toBe(expected);
  await expect.poll(() => fs.readFileSync(pageFile(), 'utf8')).toBe(expected);
});
