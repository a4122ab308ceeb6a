import { expect, test, type Page } from '@playwright/test';
import { getFromSite, siteUrl } from '../fixtures/sites';

/**
 * Every navigation division Mintlify documents, on a site nested as languages -> products -> tabs
 * (server/test/fixtures/nested-divisions, built by global-setup as `nested`): the language switcher
 * keeps the page, the product switcher, tabs, menu items and dropdowns, per-language OpenAPI pages.
 */
const nested = siteUrl('nested');

/** Opens the switcher `label` (`Language: Français`: the group `Language` showing `Français`) and follows its entry `entry`. */
async function switchTo(page: Page, label: string, entry: string | RegExp): Promise<void> {
  const switcher = page.getByRole('group', { name: label.slice(0, label.indexOf(':')), exact: true });
  await switcher.getByLabel(label, { exact: true }).click();
  await switcher.getByRole('link', { name: entry }).click();
}

test.describe('languages', () => {
  test('the language switcher opens the same page in the other language, in that language', async ({ page }) => {
    await page.goto(`${nested}/fr/products/platform/configuration/deep/limits`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('heading', { level: 1, name: 'Limites' })).toBeVisible();
    await switchTo(page, 'Language: Français', 'English');
    await expect(page).toHaveURL(`${nested}/en/products/platform/configuration/deep/limits`);
    await expect(page.getByRole('heading', { level: 1, name: 'Limits' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    // the English sidebar: the nested "Deep dive" group is open on the current page
    await expect(page.getByRole('navigation', { name: 'Documentation' }).getByRole('link', { name: 'Limits' })).toHaveAttribute('aria-current', 'page');
  });

  test('a page the other language lacks switches to that language\'s first page', async ({ page }) => {
    await page.goto(`${nested}/fr/products/cloud/tarifs`);
    await switchTo(page, 'Language: Français', 'English');
    await expect(page).toHaveURL(`${nested}/en/products/platform/index`);
    await expect(page.getByRole('heading', { level: 1, name: 'Platform home' })).toBeVisible();
  });

  test('on a phone the language switcher stays in the top bar and keeps the page', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${nested}/en/products/platform/build/pipelines`);
    await switchTo(page, 'Language: English', 'Français');
    await expect(page).toHaveURL(`${nested}/fr/products/platform/build/pipelines`);
    await expect(page.getByRole('heading', { level: 1, name: 'Pipelines de compilation' })).toBeVisible();
  });

  test('each language has its own llms.txt, and its own OpenAPI pages', async ({ page, request }) => {
    const fr = await getFromSite(request, 'nested', '/fr/llms.txt');
    expect(fr.status()).toBe(200);
    expect(await fr.text()).toContain('/fr/products/platform/build/caching.md');
    await page.goto(`${nested}/fr/api-reference/users/list-users`);
    await expect(page.getByRole('heading', { level: 1, name: 'Lister les utilisateurs' })).toBeVisible();
  });

  test("the search dialog finds the pages of the language being read only", async ({ page }) => {
    await page.goto(`${nested}/fr/support`);
    await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
    const dialog = page.getByRole('dialog', { name: 'Search the documentation' });
    await dialog.getByRole('combobox').fill('support');
    const options = dialog.getByRole('option');
    await expect(options.first()).toBeVisible();
    const links = await dialog.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(links.length).toBeGreaterThan(0);
    expect(links.every((href) => href.startsWith('/fr/')), links.join(' ')).toBe(true);
  });
});

test.describe('products, tabs, menus and dropdowns', () => {
  test('the product switcher swaps the product, its tabs and its sidebar', async ({ page }) => {
    await page.goto(`${nested}/en/products/platform/quickstart`);
    await switchTo(page, 'Product: Platform', /^Cloud/);
    await expect(page).toHaveURL(`${nested}/en/products/cloud/overview`);
    const tabs = page.getByRole('navigation', { name: 'Sections' });
    await expect(tabs.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'true');
    await tabs.getByRole('link', { name: 'Endpoints' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'List users' })).toBeVisible();
    await expect(page.getByLabel('Product: Cloud', { exact: true })).toBeVisible();
  });

  test('a tab of menu items leads through the menu and its dropdowns', async ({ page }) => {
    await page.goto(`${nested}/en/products/platform/index`);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Reference' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'CLI reference' })).toBeVisible();
    await switchTo(page, 'Menu: CLI', /^Events/);
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks guide' })).toBeVisible();
    await switchTo(page, 'Section: Webhooks', /^Events/);
    await expect(page).toHaveURL(`${nested}/en/products/platform/reference/dropdown-b`);
    await expect(page.getByRole('heading', { level: 1, name: 'Events guide' })).toBeVisible();
  });

  test('in-branch versions of a product switch to the same page in the other version', async ({ page }) => {
    await page.goto(`${nested}/en/products/legacy/v2/intro`);
    await switchTo(page, 'Version: v2', 'v1');
    await expect(page).toHaveURL(`${nested}/en/products/legacy/v1/intro`);
    await expect(page.getByRole('heading', { level: 1, name: 'SDK v1 introduction' })).toBeVisible();
  });

  test('a tab holding pages directly, and the global anchors on every page', async ({ page }) => {
    await page.goto(`${nested}/en/products/platform/index`);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Changelog' }).click();
    await expect(page).toHaveURL(`${nested}/en/changelog`);
    const sidebar = page.getByRole('navigation', { name: 'Documentation' });
    await expect(sidebar.getByRole('link', { name: 'Support' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Status' })).toHaveAttribute('href', 'https://status.example.com');
  });
});
