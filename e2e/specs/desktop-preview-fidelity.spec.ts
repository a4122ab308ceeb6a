import { expect, test, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { screenshot, useDesktopStack } from '../fixtures/desktop-stack';

/**
 * The desktop preview draws a page as the published site does: the demo project's rich-content page
 * (math, a Mermaid diagram, code block options, views) is built and deployed by a real Quire server,
 * then opened in Quire Desktop (`pnpm desktop:web`). The article's visible text is the same in both,
 * every image of the preview (the logo of docs.json) loads from the workspace, and math shows once
 * (KaTeX's stylesheet hides its MathML copy).
 */
const SERVER_PORT = Number(process.env.QUIRE_E2E_FIDELITY_SERVER_PORT ?? 4421);
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_FIDELITY_PORT ?? 5421);
const SLUG = 'desktop-fidelity';
const WRITER = { email: 'writer@fidelity.test', password: 'a long fidelity password', role: 'editor' } as const;
const PAGE_TITLE = 'Math, diagrams and views';

const { stack, url } = useDesktopStack({ name: 'desktop-fidelity', serverPort: SERVER_PORT, desktopPort: DESKTOP_PORT, projectName: 'Fidelity demo', projectSlug: SLUG, user: WRITER });

/**
 * The article's visible text, its whitespace collapsed (`innerText` leaves out what is not rendered),
 * without the "Last updated" line: the build dates a page from the repository's history
 * (server/src/builder/page-dates.ts), which a workspace does not hold.
 */
async function articleText(article: Locator): Promise<string> {
  const text = await article.evaluate((el) => {
    const updated = el.querySelector<HTMLElement>('.q-updated')?.innerText ?? '';
    return updated ? (el as HTMLElement).innerText.replace(updated, '') : (el as HTMLElement).innerText;
  });
  return text.replace(/\s+/g, ' ').trim();
}

/** Widths of the MathML copies of the page's formulas: KaTeX's stylesheet clips each to 1 px. */
async function mathmlWidths(article: Locator): Promise<number[]> {
  return article.locator('.katex-mathml').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width));
}

/** Deploys the demo project and answers its live URL. */
async function deploySite(): Promise<string> {
  const projects = await stack.api<{ data: Array<{ id: string; slug: string }> }>('/projects');
  const projectId = projects.data.find((p) => p.slug === SLUG)!.id;
  const build = await stack.call('POST', `/projects/${projectId}/builds`, {});
  expect(build.status, build.text).toBe(202);
  const buildId = build.json.data!.id;
  let siteUrl = '';
  await expect
    .poll(
      async () => {
        const b = (await stack.call('GET', `/projects/${projectId}/builds/${buildId}`)).json.data as unknown as { status: string; url: string | null };
        siteUrl = b.url ?? '';
        return b.status;
      },
      { timeout: 180_000, intervals: [500] },
    )
    .toBe('deployed');
  return siteUrl.replace(/\/+$/, '');
}

async function openPreview(page: Page): Promise<FrameLocator> {
  await page.goto(url());
  await page.getByLabel('Server URL').fill(stack.serverUrl);
  await page.getByLabel('Email').fill(WRITER.email);
  await page.getByLabel('Password').fill(WRITER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('list', { name: 'Projects' }).getByRole('listitem', { name: 'Fidelity demo' }).click();
  await page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: PAGE_TITLE, exact: true }).click();
  const preview = page.getByTitle('Preview', { exact: true }).contentFrame();
  await expect(preview.getByRole('heading', { name: PAGE_TITLE, level: 1 })).toBeVisible();
  return preview;
}

test('the desktop preview shows the rich-content page as the published site does', async ({ page, browser }, testInfo) => {
  const siteUrl = await deploySite();
  const preview = await openPreview(page);
  const article = preview.locator('article.q-article');
  await expect(article.locator('.q-mermaid-drawn')).toHaveCount(1);

  // the site in a window the size of the preview frame (the layout, and so the text shown, depends on the width)
  const box = (await page.getByTitle('Preview', { exact: true }).boundingBox())!;
  const siteContext = await browser.newContext({ colorScheme: 'light', viewport: { width: Math.round(box.width), height: Math.round(box.height) } });
  const site = await siteContext.newPage();
  await site.goto(`${siteUrl}/writing/rich-content`);
  const siteArticle = site.locator('article.q-article');
  await expect(siteArticle.getByRole('heading', { name: PAGE_TITLE, level: 1 })).toBeVisible();
  await expect(siteArticle.locator('.q-mermaid-drawn')).toHaveCount(1);
  const expected = await articleText(siteArticle);
  expect(expected).toContain('Write Review Publish');
  expect(await mathmlWidths(siteArticle)).toEqual([1, 1, 1]);
  await siteContext.close();

  await expect.poll(() => articleText(article)).toBe(expected);
  // math once: the formulas are drawn by KaTeX and their MathML copies are clipped to 1 px, as on the site
  await expect.poll(() => mathmlWidths(article)).toEqual([1, 1, 1]);

  // every image shown loaded (the logo of docs.json, from the workspace)
  const shown = () =>
    preview.locator('img').evaluateAll((imgs) =>
      (imgs as HTMLImageElement[]).filter((i) => i.checkVisibility()).map((i) => ({ src: i.getAttribute('src'), loaded: i.complete && i.naturalWidth > 0 })),
    );
  await expect.poll(shown).toEqual([{ src: expect.stringMatching(/^\/_quire-preview\/[^/]+\/images\/logo-light\.svg$/), loaded: true }]);
  await screenshot(page, testInfo, 'desktop-preview-fidelity');
});
