import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { openLocalPage, writeDocsFolder } from '../fixtures/local-folder';
import { DesktopStack, screenshot } from '../fixtures/desktop-stack';

/**
 * Images from Quire Desktop's editor (`pnpm desktop:web`, no server: a local folder opened signed
 * out): "Insert image" opens a file chooser; the chosen image is copied under `images/` of the docs
 * folder with a safe, unique name, its Markdown lands at the caret, and the live preview shows it
 * loaded; the "/" menu's "Insert image", a pasted image and a dropped one do the same. A file that
 * is not an image is refused with a message saying which types are taken.
 */
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_IMAGES_PORT ?? 5431);
const here = path.dirname(fileURLToPath(import.meta.url));
/** A real PNG (256 x 256) from the vendored corpora. */
const PNG = fs.readFileSync(path.join(here, '..', '..', 'fixtures', 'corpora', 'agentops', 'favicon.png'));

const stack = new DesktopStack('desktop-images', 0);
let desktopUrl = '';
let folder = '';

test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.use({ colorScheme: 'light', viewport: { width: 1440, height: 900 } });
test.beforeAll(async () => {
  test.setTimeout(240_000);
  const nav = { name: 'Pictures', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } };
  folder = writeDocsFolder('quire-e2e-images-', { 'docs.json': JSON.stringify(nav), 'index.mdx': '---\ntitle: Welcome\n---\n\nThe architecture:\n' });
  desktopUrl = await stack.startDesktop(DESKTOP_PORT);
});
test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

/** Chooses `files` in the file chooser that "Insert image" opens. */
async function insertImage(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('toolbar', { name: 'Page tools' }).getByRole('button', { name: 'Insert image' }).click();
  await (await chooser).setFiles(files);
}

test('a writer inserts an image: it is copied into the docs folder, its Markdown is in the page and the preview shows it', async ({ page }, testInfo) => {
  // a listener for the whole test keeps Playwright's file chooser interception on: without one, a chooser
  // opened just after the previous one was handled may come before interception is on again, and be missed
  page.on('filechooser', () => undefined);
  await openLocalPage(page, desktopUrl, folder, 'Welcome');
  const preview = page.getByTitle('Preview', { exact: true }).contentFrame();
  await expect(preview.getByRole('heading', { name: 'Welcome', level: 1 })).toBeVisible();

  // the caret at the end of the page, where the image goes
  const editor = page.getByRole('textbox', { name: /^Editor/ });
  await editor.focus();
  await page.keyboard.press('Control+End');

  await insertImage(page, [{ name: 'Architecture Diagram.png', mimeType: 'image/png', buffer: PNG }]);
  const markdown = '![Architecture Diagram](/images/architecture-diagram.png)';
  await expect(page.locator('.monaco-editor .view-lines')).toContainText(markdown);
  const image = preview.getByRole('img', { name: 'Architecture Diagram' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);
  // on disk, beside the pages, with the same bytes; the page saved with its Markdown
  await expect.poll(() => fs.existsSync(path.join(folder, 'docs', 'images', 'architecture-diagram.png'))).toBe(true);
  expect(fs.readFileSync(path.join(folder, 'docs', 'images', 'architecture-diagram.png')).equals(PNG)).toBe(true);
  await expect.poll(() => fs.readFileSync(path.join(folder, 'docs', 'index.mdx'), 'utf8')).toContain(`The architecture:\n${markdown}`);
  await screenshot(page, testInfo, 'desktop-insert-image');

  await test.step('"Insert image" from the "/" menu: the same name again gets a name of its own', async () => {
    await page.keyboard.press('Enter');
    await page.keyboard.type('/insert');
    const option = page.getByRole('option', { name: /Insert image/ });
    await expect(option).toBeVisible();
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles([{ name: 'Architecture Diagram.png', mimeType: 'image/png', buffer: PNG }]);
    await expect(page.locator('.monaco-editor .view-lines')).toContainText('![Architecture Diagram](/images/architecture-diagram-1.png)');
    await expect(page.locator('.monaco-editor .view-lines')).not.toContainText('/insert');
    await expect.poll(() => fs.existsSync(path.join(folder, 'docs', 'images', 'architecture-diagram-1.png'))).toBe(true);
  });

  await test.step('an image pasted, and one dropped onto the editor, are added the same way', async () => {
    const viewLines = page.locator('.monaco-editor .view-lines');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    // what the browser hands the page for a pasted screenshot: a file named image.png, no text
    await page.locator('.editor-host').evaluate((host, bytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }));
      (host.querySelector('.monaco-editor') ?? host).dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, [...PNG]);
    await expect(viewLines).toContainText('![image](/images/image.png)');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    const box = (await page.locator('.editor-host').boundingBox())!;
    await page.locator('.editor-host').evaluate((host, { bytes, x, y }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], 'Dropped Photo.png', { type: 'image/png' }));
      const target = host.querySelector('.view-lines') ?? host;
      for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: data, clientX: x, clientY: y, bubbles: true, cancelable: true }));
    }, { bytes: [...PNG], x: box.x + box.width / 2, y: box.y + box.height - 20 });
    await expect(viewLines).toContainText('![Dropped Photo](/images/dropped-photo.png)');
    await expect.poll(() => fs.existsSync(path.join(folder, 'docs', 'images', 'dropped-photo.png'))).toBe(true);
    await expect(preview.getByRole('img', { name: 'Dropped Photo' })).toBeVisible();
  });

  await test.step('a file that is not an image is refused with a message naming the types taken, and nothing is added', async () => {
    await insertImage(page, [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') }]);
    // Monaco keeps empty alert regions of its own for screen readers: the page's alert is the one naming the file
    await expect(page.getByRole('alert').filter({ hasText: 'notes.txt' })).toHaveText(
      'notes.txt is not an image Quire can add: use a PNG, JPEG, GIF, WebP, SVG or AVIF file.',
    );
    expect(fs.readdirSync(path.join(folder, 'docs', 'images')).sort()).toEqual(['architecture-diagram-1.png', 'architecture-diagram.png', 'dropped-photo.png', 'image.png']);
  });
});
