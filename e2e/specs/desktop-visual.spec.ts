import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openLocalPage, writeDocsFolder } from '../fixtures/local-folder';
import { DesktopStack, screenshot } from '../fixtures/desktop-stack';
import { monacoText } from '../fixtures/monaco-text';

/**
 * Quire Desktop's visual editing mode (`pnpm desktop:web`, a local folder opened signed out): a writer
 * switches a page to "Visual", edits a paragraph, a Note's text and a Card's title in place, switches
 * back to "MDX" and finds exactly those changes in the editor's text (the whole text compared, so nothing
 * else moved), on disk and in the live preview. Also: the insert menu from the keyboard, the block toolbar,
 * the frontmatter form, a read-only block opened in MDX mode, undo across the modes, code blocks and "Delete block".
 * Everything is found by role and name. Screenshots: e2e/artifacts/screenshots/desktop-visual-*.png.
 */
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_VISUAL_PORT ?? 5461);

const PAGE = [
  '---',
  'title: Visual editing',
  'description: Edited without MDX.',
  '---',
  '',
  'Our product ships *fast* and stays simple.',
  '',
  '<Note>',
  '  Keep your API key secret.',
  '</Note>',
  '',
  '<Card title="Quickstart" href="/quickstart">',
  '  Start in five minutes.',
  '</Card>',
  '',
  '* First item',
  '* Second item',
  '',
].join('\n');

const stack = new DesktopStack('desktop-visual', 0);
let desktopUrl = '';
let folder = '';
const pageFile = () => path.join(folder, 'docs', 'visual.mdx');

test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.use({ colorScheme: 'light', viewport: { width: 1600, height: 1000 } });
test.beforeAll(async () => {
  test.setTimeout(240_000);
  const nav = { name: 'Visual', navigation: { groups: [{ group: 'Start', pages: ['visual', 'quickstart'] }] } };
  folder = writeDocsFolder('quire-e2e-visual-', { 'docs.json': JSON.stringify(nav), 'quickstart.mdx': '---\ntitle: Quickstart\n---\n\nStart here.\n' });
  desktopUrl = await stack.startDesktop(DESKTOP_PORT);
});
test.beforeEach(() => fs.writeFileSync(pageFile(), PAGE));
test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

/** Opens the folder and the page "Visual editing" in MDX mode. */
async function openPage(page: Page): Promise<void> {
  await openLocalPage(page, desktopUrl, folder, 'Visual editing');
  await expect(page.getByTitle('Preview', { exact: true }).contentFrame().getByRole('heading', { name: 'Visual editing', level: 1 })).toBeVisible({ timeout: 60_000 });
}

/** Puts the caret at the end of the editable text `text` of the visual editor and types `typed`. */
async function appendTo(page: Page, text: string, typed: string): Promise<void> {
  const visual = page.getByRole('textbox', { name: 'Visual editor' });
  await visual.getByText(text, { exact: true }).click();
  await page.keyboard.press('End');
  await page.keyboard.type(typed);
}

test('a writer edits a paragraph, a Note and a Card title visually; MDX mode shows exactly those changes, and so do the file and the preview', async ({ page }, testInfo) => {
  await openPage(page);
  const toVisual = page.getByRole('button', { name: 'Visual', exact: true });
  const toMdx = page.getByRole('button', { name: 'MDX', exact: true });
  await expect(toMdx).toHaveAttribute('aria-pressed', 'true');
  await toVisual.click();
  await expect(toVisual).toHaveAttribute('aria-pressed', 'true');
  const visual = page.getByRole('textbox', { name: 'Visual editor' });
  await expect(visual).toHaveAttribute('aria-multiline', 'true');
  // drawn as the site draws it: the Note is a callout, the Card shows its title
  await expect(visual.getByRole('note', { name: 'Note' })).toContainText('Keep your API key secret.');
  await expect(visual.getByRole('group', { name: 'Card: Quickstart' })).toBeVisible();

  await appendTo(page, 'Our product ships fast and stays simple.', ' Today.');
  await appendTo(page, 'Keep your API key secret.', ' Rotate it yearly.');
  await visual.getByText('Start in five minutes.', { exact: true }).click();
  const card = page.getByRole('form', { name: 'Card properties' });
  await expect(card.getByLabel('Title', { exact: true })).toHaveValue('Quickstart');
  await card.getByLabel('Title', { exact: true }).fill('Get started');
  await card.getByLabel('Title', { exact: true }).press('Tab');
  await expect(visual.getByRole('group', { name: 'Card: Get started' })).toBeVisible();
  await screenshot(page, testInfo, 'desktop-visual-edited');

  const expected = PAGE.replace('stays simple.', 'stays simple. Today.')
    .replace('Keep your API key secret.', 'Keep your API key secret. Rotate it yearly.')
    .replace('title="Quickstart"', 'title="Get started"');
  await toMdx.click();
  await expect(toMdx).toHaveAttribute('aria-pressed', 'true');
  await expect(visual).toHaveCount(0);
  await expect.poll(() => monacoText(page)).toBe(expected);
  await expect.poll(() => fs.readFileSync(pageFile(), 'utf8')).toBe(expected);

  const preview = page.getByTitle('Preview', { exact: true }).contentFrame();
  await expect(preview.getByText('Our product ships fast and stays simple. Today.')).toBeVisible();
  await expect(preview.getByText('Keep your API key secret. Rotate it yearly.')).toBeVisible();
  await expect(preview.getByText('Get started', { exact: true })).toBeVisible();
  await screenshot(page, testInfo, 'desktop-visual-mdx');

  // undo works across the modes: the Card title's edit is undone in MDX mode
  await page.getByRole('textbox', { name: /^Editor/ }).focus();
  await page.keyboard.press('Control+z');
  await expect.poll(() => monacoText(page)).toBe(expected.replace('title="Get started"', 'title="Quickstart"'));
});

test('the mode is remembered; the insert menu, the block toolbar and the page form edit the page; a read-only block opens in MDX', async ({ page }, testInfo) => {
  fs.writeFileSync(pageFile(), `${PAGE}\n{/* kept as written */}\n`);
  await openPage(page);
  // a new browser context starts in MDX mode; the choice survives a restart of the app (a reload)
  await expect(page.getByRole('button', { name: 'Visual', exact: true })).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('button', { name: 'Visual', exact: true }).click();
  await page.reload();
  await page.getByLabel('Folder path').or(page.getByRole('tree', { name: 'Pages' })).first().waitFor();
  if (await page.getByLabel('Folder path').isVisible()) {
    await page.getByLabel('Folder path').fill(folder);
    await page.getByRole('button', { name: 'Open folder' }).click();
  }
  await page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: 'Visual editing', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Visual', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const visual = page.getByRole('textbox', { name: 'Visual editor' });
  await expect(visual).toBeVisible();

  // the page form: frontmatter title
  await page.getByRole('form', { name: 'Page details' }).getByLabel('Page title').fill('Visual pages');
  await page.getByRole('form', { name: 'Page details' }).getByLabel('Page title').press('Enter');

  // Enter at the end of a paragraph starts a new one; "/" there opens the insert menu, keyboard only
  await appendTo(page, 'Our product ships fast and stays simple.', '');
  await page.keyboard.press('Enter');
  await page.keyboard.press('/');
  const menu = page.getByRole('menu', { name: 'Insert block' });
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Paragraph', 'Heading', 'List', 'Note', 'Warning', 'Tip', 'Info', 'Card', 'Code block', 'Divider', 'Image',
  ]);
  await expect(menu.getByRole('menuitem', { name: 'Paragraph' })).toBeFocused();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Tip' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveCount(0);
  await expect(visual.getByRole('note', { name: 'Tip' })).toContainText('Tip text.');

  // the toolbar: the first paragraph becomes a heading of level 2
  await visual.getByText('Our product ships fast and stays simple.', { exact: true }).click();
  await page.getByRole('toolbar', { name: 'Block tools' }).getByLabel('Heading level').selectOption({ label: 'Heading 2' });
  await expect(visual.getByRole('heading', { name: 'Our product ships fast and stays simple.', level: 2 })).toBeVisible();
  await screenshot(page, testInfo, 'desktop-visual-insert');

  // the expression cannot be edited visually: its source shows, and "Open in MDX" goes there
  const readOnly = visual.getByRole('group', { name: /^Read-only block/ });
  await expect(readOnly).toContainText('{/* kept as written */}');
  await readOnly.getByRole('button', { name: 'Open in MDX' }).click();
  await expect(page.getByRole('button', { name: 'MDX', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const expected = PAGE.replace('title: Visual editing', 'title: Visual pages')
    .replace('Our product ships *fast* and stays simple.', '## Our product ships *fast* and stays simple.\n\n<Tip>\nTip text.\n</Tip>')
    .concat('\n{/* kept as written */}\n');
  await expect.poll(() => monacoText(page)).toBe(expected);
  const line = expected.split('\n').indexOf('{/* kept as written */}') + 1;
  await expect(page.getByRole('contentinfo', { name: 'Status bar' }).or(page.locator('footer[aria-label="Status bar"]'))).toContainText(`Ln ${line},`);
});

test('a code block\'s text and language are edited in place, and a block is deleted from the toolbar', async ({ page }) => {
  fs.writeFileSync(pageFile(), `${PAGE}\n~~~js\nconst a = 1;\n~~~\n`);
  await openPage(page);
  await page.getByRole('button', { name: 'Visual', exact: true }).click();
  const visual = page.getByRole('textbox', { name: 'Visual editor' });
  const code = visual.getByRole('group', { name: 'Code block (js)' }).getByRole('textbox', { name: 'Code' });
  await expect(code).toHaveValue('const a = 1;');
  await code.fill('const a = 2;\nconsole.log(a);');
  await page.getByRole('toolbar', { name: 'Block tools' }).getByLabel('Language').fill('ts');
  await page.getByRole('toolbar', { name: 'Block tools' }).getByLabel('Language').press('Enter');
  await expect(visual.getByRole('group', { name: 'Code block (ts)' })).toBeVisible();
  await visual.getByText('Our product ships fast and stays simple.', { exact: true }).click();
  await page.getByRole('toolbar', { name: 'Block tools' }).getByRole('button', { name: 'Delete block' }).click();
  await expect(visual.getByText('Our product ships fast and stays simple.', { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'MDX', exact: true }).click();
  const expected = `${PAGE.replace('Our product ships *fast* and stays simple.\n\n', '')}\n~~~ts\nconst a = 2;\nconsole.log(a);\n~~~\n`;
  await expect.poll(() => monacoText(page)).toBe(expected);
  await expect.poll(() => fs.readFileSync(pageFile(), 'utf8')).toBe(expected);
});
