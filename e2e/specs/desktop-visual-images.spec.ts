import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { openLocalPage, writeDocsFolder } from '../fixtures/local-folder';
import { DesktopStack, screenshot } from '../fixtures/desktop-stack';
import { monacoText } from '../fixtures/monaco-text';

/**
 * Images in Quire Desktop's visual mode (`pnpm desktop:web`, a local folder opened signed out): "Insert block"
 * → "Image" opens the file chooser; the chosen image is copied under `images/` of the docs folder, shown in
 * place, and its alt text is set in the side form; MDX mode then shows exactly the image's Markdown after the
 * block it was inserted after, and the live preview shows the image loaded. A file that is not an image is
 * refused with MDX mode's message; a pasted image, and one dropped on a block, are added the same way.
 * Found by role and name.
 */
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_VISUAL_IMAGES_PORT ?? 5481);
const here = path.dirname(fileURLToPath(import.meta.url));
/** A real PNG (256 x 256) from the vendored corpora. */
const PNG = fs.readFileSync(path.join(here, '..', '..', 'fixtures', 'corpora', 'agentops', 'favicon.png'));
const PAGE = '---\ntitle: Pictures\n---\n\nThe architecture:\n\nAfter the picture.\n';

const stack = new DesktopStack('desktop-visual-images', 0);
let desktopUrl = '';
let folder = '';
const docs = (...parts: string[]) => path.join(folder, 'docs', ...parts);

test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.use({ colorScheme: 'light', viewport: { width: 1600, height: 1000 } });
test.beforeAll(async () => {
  test.setTimeout(240_000);
  const nav = { name: 'Pictures', navigation: { groups: [{ group: 'Start', pages: ['pictures'] }] } };
  folder = writeDocsFolder('quire-e2e-visual-images-', { 'docs.json': JSON.stringify(nav), 'pictures.mdx': PAGE });
  desktopUrl = await stack.startDesktop(DESKTOP_PORT);
});
test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

/** "Insert block" → "Image" in the visual mode's toolbar, choosing `files` in the file chooser it opens. */
async function insertImage(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  await page.getByRole('toolbar', { name: 'Block tools' }).getByRole('button', { name: 'Insert block' }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('menu', { name: 'Insert block' }).getByRole('menuitem', { name: 'Image' }).click();
  await (await chooser).setFiles(files);
}

const loadedWidth = (img: HTMLImageElement) => img.complete && img.naturalWidth;

test('a writer inserts an image in visual mode and sets its alt text; MDX mode, the folder and the preview show it', async ({ page }, testInfo) => {
  page.on('filechooser', () => undefined); // keeps Playwright's chooser interception on between choosers (desktop-images.spec.ts)
  await openLocalPage(page, desktopUrl, folder, 'Pictures');
  const preview = page.getByTitle('Preview', { exact: true }).contentFrame();
  await expect(preview.getByRole('heading', { name: 'Pictures', level: 1 })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Visual', exact: true }).click();
  const visual = page.getByRole('textbox', { name: 'Visual editor' });

  // the image goes after the selected paragraph, shown in place from the project's copy
  await visual.getByText('The architecture:', { exact: true }).click();
  await insertImage(page, [{ name: 'Architecture Diagram.png', mimeType: 'image/png', buffer: PNG }]);
  const block = visual.getByRole('group', { name: 'Image: Architecture Diagram' });
  await expect(block).toBeVisible();
  await expect.poll(() => block.getByRole('img').evaluate(loadedWidth)).toBe(256);
  await expect.poll(() => fs.existsSync(docs('images', 'architecture-diagram.png'))).toBe(true);
  expect(fs.readFileSync(docs('images', 'architecture-diagram.png')).equals(PNG)).toBe(true);

  // the new image is selected: its alt text and URL are in the side form
  await block.click();
  const form = page.getByRole('form', { name: 'Image properties' });
  await expect(form.getByLabel('Image URL')).toHaveValue('/images/architecture-diagram.png');
  await form.getByLabel('Alt text').fill('The system at a glance');
  await form.getByLabel('Alt text').press('Enter');
  await expect(visual.getByRole('group', { name: 'Image: The system at a glance' })).toBeVisible();
  await screenshot(page, testInfo, 'desktop-visual-image');

  const expected = PAGE.replace('The architecture:\n', 'The architecture:\n\n![The system at a glance](/images/architecture-diagram.png)\n');
  await page.getByRole('button', { name: 'MDX', exact: true }).click();
  await expect.poll(() => monacoText(page)).toBe(expected);
  await expect.poll(() => fs.readFileSync(docs('pictures.mdx'), 'utf8')).toBe(expected);
  const shown = preview.getByRole('img', { name: 'The system at a glance' });
  await expect(shown).toBeVisible();
  await expect.poll(() => shown.evaluate(loadedWidth)).toBe(256);

  await test.step('a file that is not an image is refused with the message MDX mode shows; a pasted image is added', async () => {
    await page.getByRole('button', { name: 'Visual', exact: true }).click();
    await visual.getByText('After the picture.', { exact: true }).click();
    await insertImage(page, [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') }]);
    await expect(page.getByRole('alert').filter({ hasText: 'notes.txt' })).toHaveText(
      'notes.txt is not an image Quire can add: use a PNG, JPEG, GIF, WebP, SVG or AVIF file.',
    );
    // what the browser hands the page for a pasted screenshot: a file named image.png, no text
    await visual.evaluate((surface, bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }));
      surface.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, [...PNG]);
    await expect(visual.getByRole('group', { name: 'Image: image' })).toBeVisible();
    await expect.poll(() => fs.readFileSync(docs('pictures.mdx'), 'utf8')).toBe(`${expected}\n![image](/images/image.png)\n`);
    expect(fs.readdirSync(docs('images')).sort()).toEqual(['architecture-diagram.png', 'image.png']);
  });

  await test.step('an image dropped on a block goes after that block', async () => {
    const target = visual.getByText('The architecture:', { exact: true });
    await target.evaluate((el, bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], 'Dropped Photo.png', { type: 'image/png' }));
      for (const type of ['dragenter', 'dragover', 'drop']) el.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }, [...PNG]);
    await expect(visual.getByRole('group', { name: 'Image: Dropped Photo' })).toBeVisible();
    await expect
      .poll(() => fs.readFileSync(docs('pictures.mdx'), 'utf8'))
      .toBe(`${expected.replace('The architecture:\n', 'The architecture:\n\n![Dropped Photo](/images/dropped-photo.png)\n')}\n![image](/images/image.png)\n`);
  });
});
