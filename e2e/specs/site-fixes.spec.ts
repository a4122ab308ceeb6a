import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DesktopStack, screenshot } from '../fixtures/desktop-stack';
import { siteFixesFiles, startMockApi, type MockApi } from '../fixtures/site-fixes';

/**
 * What a new user saw wrong on the sites, at 1440 and 390 px: card grids, the content column's left
 * edge, OpenAPI pages (examples in a sticky right column, the path never cut off, the playground),
 * inline code in titles, SVG icons on dark, footer social icons, missing images, last-updated dates
 * and edit links for any host, Tip vs Check colors. A Quire server of its own builds the docs of
 * e2e/fixtures/site-fixes.ts; a mock API answers the playground.
 */
const PORT = Number(process.env.QUIRE_E2E_SITE_FIXES_PORT ?? 4386);
const SLUG = 'fixes';
const stack = new DesktopStack('site-fixes', PORT);
const site = `http://${SLUG}-docs.localhost:${PORT}`;
let api: MockApi;
let buildLog = '';

const main = (page: Page) => page.getByRole('main');
/** URL of the generated page of an operation, found by its title in the site's llms.txt (links to `<page>.md`). */
async function apiPage(page: Page, title: string): Promise<string> {
  const text = await (await page.goto(`${site}/llms.txt`))!.text();
  const m = new RegExp(`\\[${title}\\]\\((http[^)]+)\\.md\\)`).exec(text);
  expect(m, `"${title}" in llms.txt:\n${text}`).not.toBeNull();
  return m![1]!;
}

test.describe.configure({ mode: 'serial', timeout: 60_000 });
test.use({ colorScheme: 'light' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  api = await startMockApi();
  await stack.startServer();
  const { projectId, buildId, repo } = await stack.deployFiles(SLUG, 'Fixes docs', siteFixesFiles(api.origin));
  buildLog = (await stack.call('GET', `/projects/${projectId}/builds/${buildId}/logs`)).text;
  fs.rmSync(repo, { recursive: true, force: true });
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
  await api?.close();
});

test.describe('at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('card grids keep two columns; titles show inline code, not backticks', async ({ page }, info) => {
    await page.goto(`${site}/`);
    const install = main(page).getByRole('link', { name: 'Install quire' });
    const cards = main(page).locator('.q-columns > .q-card');
    const a = (await cards.nth(0).boundingBox())!;
    const b = (await cards.nth(1).boundingBox())!;
    expect(Math.abs(a.y - b.y)).toBeLessThan(2); // side by side
    expect(b.x).toBeGreaterThanOrEqual(a.x + a.width);
    await expect(install.locator('code')).toHaveText('quire');
    await expect(main(page).locator('.q-step-title').first().locator('code')).toHaveText('quire init');
    await expect(main(page).locator('.q-step-title').first()).not.toContainText('`');
    await expect(main(page).locator('.q-card-title strong')).toHaveText('pages');
    await screenshot(page, info, 'site-fixes-guide-1440');
  });

  test("the content column's left edge is the same on a guide, an API page and the 404 page", async ({ page }) => {
    const h1 = () => main(page).getByRole('heading', { level: 1 });
    await page.goto(`${site}/`);
    const guide = (await h1().boundingBox())!.x;
    await page.goto(await apiPage(page, 'Create a pet'));
    await expect(h1()).toHaveText('Create a pet');
    const apiX = (await h1().boundingBox())!.x;
    await page.goto(`${site}/no/such/page`);
    await expect(h1()).toHaveText('Page not found');
    const notFound = (await h1().boundingBox())!.x;
    expect(Math.abs(apiX - guide)).toBeLessThanOrEqual(1);
    expect(Math.abs(notFound - guide)).toBeLessThanOrEqual(1);
  });

  test('OpenAPI pages show the examples in a sticky right-hand column', async ({ page }, info) => {
    await page.goto(await apiPage(page, 'Create a pet'));
    const examples = main(page).getByRole('region', { name: 'Examples' });
    const body = main(page).getByRole('heading', { name: 'Body' });
    const ex = (await examples.boundingBox())!;
    const bd = (await body.boundingBox())!;
    expect(ex.x).toBeGreaterThan(bd.x + bd.width * 0.5); // to the right of the reference
    await expect(examples.getByRole('tab', { name: 'cURL' })).toBeVisible();
    await screenshot(page, info, 'site-fixes-api-1440');
    // it stays below the top bar while the reference scrolls by
    const header = (await page.locator('header.q-header').boundingBox())!;
    await page.evaluate(() => window.scrollBy(0, 500));
    await expect.poll(async () => (await examples.boundingBox())!.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect((await body.boundingBox())!.y).toBeLessThan(bd.y - 400); // the reference did scroll
  });

  test('the API playground sends the request from the browser to the OpenAPI server and shows the answer', async ({ page }, info) => {
    const url = await apiPage(page, 'Get a vaccination certificate');
    const res = await page.goto(url);
    expect(res!.headers()['content-security-policy']).toContain(`connect-src 'self' ${api.origin}`);
    await main(page).getByRole('button', { name: 'Try it' }).click();
    const form = main(page).getByRole('form', { name: /Try GET/ });
    await expect(form.getByRole('textbox', { name: /petId/ })).toHaveValue('rex');
    await form.getByRole('textbox', { name: /vaccinationId/ }).fill('v 2');
    await form.getByLabel(/Bearer token/).fill('secret-token');
    await form.getByRole('textbox', { name: /format/ }).fill('json');
    await form.getByRole('button', { name: 'Send request' }).click();
    const result = main(page).getByRole('status').filter({ hasText: 'Response' });
    await expect(result).toContainText('200');
    await expect(result.getByLabel('Response body')).toContainText('"valid": true');
    const got = api.requests.at(-1)!;
    expect(got.method).toBe('GET');
    expect(got.url).toBe('/v1/pets/rex/vaccinations/v%202/certificates?format=json');
    expect(got.authorization).toBe('Bearer secret-token');
    await screenshot(page, info, 'site-fixes-playground-1440');
  });

  test('footer social links are icons named by the network', async ({ page }) => {
    await page.goto(`${site}/`);
    const socials = page.getByRole('list', { name: 'Social links' });
    for (const name of ['GitHub', 'X', 'Discord']) {
      const link = socials.getByRole('link', { name, exact: true });
      await expect(link).toBeVisible();
      await expect(link.locator('svg')).toHaveCount(1);
      expect((await link.innerText()).trim()).toBe('');
    }
  });

  test('a missing image is a placeholder with its alt text, and the build still warns', async ({ page }) => {
    expect(buildLog).toMatch(/missing-image.*missing-diagram\.png/);
    await page.goto(`${site}/`);
    const placeholder = main(page).getByRole('img', { name: /Architecture diagram/ });
    await expect(placeholder).toHaveClass(/q-img-missing/);
    await expect(placeholder).toContainText('Architecture diagram');
    await expect(main(page).locator('img[src*="missing-diagram"]')).toHaveCount(0);
  });

  test('pages show when they last changed (git history, or frontmatter) and an edit link from the editUrl pattern', async ({ page }) => {
    await page.goto(`${site}/`);
    const today = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date());
    await expect(main(page).getByText(`Last updated ${today}`)).toBeVisible();
    await expect(main(page).getByRole('link', { name: 'Edit this page' })).toHaveAttribute('href', 'https://git.example.com/acme/docs/_edit/main/index.mdx');
    await page.goto(`${site}/dated`);
    await expect(main(page).getByText('Last updated March 5, 2024')).toBeVisible();
    await expect(main(page).getByRole('link', { name: 'Edit this page' })).toHaveAttribute('href', 'https://git.example.com/acme/docs/_edit/main/dated.mdx');
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`Tip and Check callouts have clearly different hues (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${site}/`);
      const hue = (name: string) =>
        main(page).getByRole('note', { name }).locator('.q-callout-icon').evaluate((el) => {
          const [r, g, b] = getComputedStyle(el).color.match(/[\d.]+/g)!.map(Number).map((v) => v / 255) as [number, number, number];
          const max = Math.max(r, g, b);
          const d = max - Math.min(r, g, b);
          if (d === 0) return 0;
          const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
          return (h * 60 + 360) % 360;
        });
      const tip = await hue('Tip');
      const check = await hue('Check');
      const distance = Math.min(Math.abs(tip - check), 360 - Math.abs(tip - check));
      expect(distance).toBeGreaterThan(60);
    });
  }

  test('an inline SVG icon without a fill is drawn in the text color on dark', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${site}/`);
    const icon = main(page).locator('.q-card-icon svg').first();
    const { fill, color } = await icon.evaluate((el) => ({ fill: getComputedStyle(el).fill, color: getComputedStyle(el).color }));
    expect(fill).toBe(color);
    expect(fill).not.toBe('rgb(0, 0, 0)');
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('card grids are one column', async ({ page }, info) => {
    await page.goto(`${site}/`);
    const cards = main(page).locator('.q-columns > .q-card');
    const a = (await cards.nth(0).boundingBox())!;
    const b = (await cards.nth(1).boundingBox())!;
    expect(Math.abs(a.x - b.x)).toBeLessThan(2);
    expect(b.y).toBeGreaterThanOrEqual(a.y + a.height);
    expect(a.width).toBeGreaterThan(300);
    await screenshot(page, info, 'site-fixes-guide-390');
  });

  test('the endpoint path wraps instead of being cut off', async ({ page }, info) => {
    await page.goto(await apiPage(page, 'Get a vaccination certificate'));
    const url = main(page).locator('.q-openapi-url');
    await expect(url).toContainText('/certificates');
    const box = (await url.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await url.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    const end = (await url.locator('.q-openapi-path').boundingBox())!;
    expect(end.x + end.width).toBeLessThanOrEqual(390);
    // the examples come after the endpoint bar, in the page's single column
    const examples = (await main(page).getByRole('region', { name: 'Examples' }).boundingBox())!;
    expect(examples.x + examples.width).toBeLessThanOrEqual(390);
    await screenshot(page, info, 'site-fixes-api-390');
  });
});
