import { expect, test, type Page } from '@playwright/test';
import { siteUrl, watchCsp } from '../fixtures/sites';
import { VERSIONS_SLUG } from '../fixtures/versioned-site';

/**
 * The site search dialog on the demo site, against the real `/_quire/search`: opened by the top bar's
 * button, Ctrl-K and `/`; results as you type grouped by page with the section, matched words marked;
 * arrow keys and Enter land on the section; Esc closes and gives focus back; full screen on a phone.
 * Scoped to the documentation version being read (the versioned fixture site). And the 404 page: a
 * search box and "Did you mean" links to the closest pages.
 */
const demo = siteUrl('demo');

const dialogOf = (page: Page) => page.getByRole('dialog', { name: 'Search the documentation' });

test.describe('search dialog', () => {
  test.use({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });

  test('opens from the top bar button, shows results as you type grouped by page, and Esc gives focus back', async ({ page }) => {
    const csp = watchCsp(page);
    await page.goto(`${demo}/quickstart`);
    const button = page.getByRole('banner').getByRole('button', { name: 'Search' });
    await expect(button).toContainText('Ctrl K');
    await button.click();
    const dialog = dialogOf(page);
    await expect(dialog).toBeVisible();
    const box = dialog.getByRole('combobox', { name: 'Search the documentation' });
    await expect(box).toBeFocused();
    // no browser clear button next to the Esc key: the input is a plain text box
    expect(await box.evaluate((el) => (el as HTMLInputElement).type)).toBe('text');
    await expect(dialog.getByRole('status')).toHaveText('Type to search the documentation.');

    await box.pressSequentially('statuses', { delay: 30 });
    const results = dialog.getByRole('listbox', { name: 'Search results' });
    const builds = results.getByRole('group', { name: 'Builds' });
    await expect(builds).toBeVisible();
    const hit = builds.getByRole('option', { name: /Statuses/ }).first();
    await expect(hit).toBeVisible();
    await expect(hit.locator('mark').first()).toHaveText(/statuses/i);
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    // the first result is active for Enter
    await expect(results.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(button).toBeFocused();
    expect(csp).toEqual([]);
  });

  test('Ctrl-K opens it; arrow keys move through the results and Enter lands on the section', async ({ page }) => {
    await page.goto(`${demo}/`);
    await page.keyboard.press('Control+k');
    const dialog = dialogOf(page);
    const box = dialog.getByRole('combobox');
    await expect(box).toBeFocused();
    await box.fill('warnings and failures');
    const options = dialog.getByRole('option');
    await expect(options.first()).toBeVisible();
    const count = await options.count();
    // down then up comes back to the first; down moves the active option (aria-activedescendant)
    await page.keyboard.press('ArrowDown');
    if (count > 1) await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowUp');
    await expect(options.first()).toHaveAttribute('aria-selected', 'true');
    const activeId = await box.getAttribute('aria-activedescendant');
    expect(activeId).toBe(await options.first().getAttribute('id'));
    const target = dialog.getByRole('option', { name: /Warnings and failures/ }).first();
    const href = await target.getAttribute('href');
    expect(href).toMatch(/^\/concepts\/builds#warnings-and-failures$/);
    while ((await box.getAttribute('aria-activedescendant')) !== (await target.getAttribute('id'))) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${demo}/concepts/builds#warnings-and-failures`);
    await expect(page.getByRole('heading', { level: 2, name: /Warnings and failures/ })).toBeInViewport();
    await expect(dialog).toBeHidden();
  });

  test('/ opens it too; a query without results says so; clearing it shows the start state', async ({ page }) => {
    await page.goto(`${demo}/concepts/projects`);
    await page.locator('body').press('/');
    const dialog = dialogOf(page);
    await expect(dialog).toBeVisible();
    const box = dialog.getByRole('combobox');
    await box.fill('qwxzzyplk');
    await expect(dialog.getByRole('status')).toHaveText('No results for \u201cqwxzzyplk\u201d');
    await expect(dialog.getByRole('option')).toHaveCount(0);
    await box.fill('');
    await expect(dialog.getByRole('status')).toHaveText('Type to search the documentation.');
    // Ctrl-K again closes it
    await page.keyboard.press('Control+k');
    await expect(dialog).toBeHidden();
  });

  test('says so when the site has search turned off (the endpoint answers search_disabled)', async ({ page }) => {
    await page.route('**/_quire/search?*', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ error: { code: 'not_found', message: 'Search is turned off for this site.', details: { reason: 'search_disabled' } } }) }),
    );
    await page.goto(`${demo}/concepts/projects`);
    await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
    const dialog = dialogOf(page);
    await dialog.getByRole('combobox').fill('builds');
    await expect(dialog.getByRole('status')).toHaveText('Search is turned off for this site.');
    await expect(dialog.getByRole('option')).toHaveCount(0);
  });

  test('clicking a result opens its page', async ({ page }) => {
    await page.goto(`${demo}/`);
    await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
    const dialog = dialogOf(page);
    await dialog.getByRole('combobox').fill('slugs');
    const hit = dialog.getByRole('group', { name: 'Projects' }).getByRole('option').first();
    await expect(hit).toBeVisible();
    await hit.click();
    await expect(page).toHaveURL(new RegExp(`^${demo}/concepts/projects`));
  });
});

test.describe('in a documentation version', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  const versions = siteUrl(VERSIONS_SLUG);

  test('searches the version being read, and its results stay in that version', async ({ page }) => {
    await page.goto(`${versions}/v1/install`);
    await page.keyboard.press('Control+k');
    const dialog = dialogOf(page);
    const asked = page.waitForRequest((r) => r.url().includes('/_quire/search?'));
    await dialog.getByRole('combobox').fill('legacy');
    expect(new URL((await asked).url()).searchParams.get('version')).toBe('v1');
    const hit = dialog.getByRole('group', { name: 'Legacy API' }).getByRole('option').first();
    await expect(hit).toHaveAttribute('href', /^\/v1\/legacy-api/);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`^${versions}/v1/legacy-api`));

    // the latest version (served at the root) has no such page
    await page.goto(`${versions}/install`);
    await page.keyboard.press('Control+k');
    await dialogOf(page).getByRole('combobox').fill('legacy');
    await expect(dialogOf(page).getByRole('status')).toHaveText('No results for \u201clegacy\u201d');
  });

  test("the version's 404 page suggests that version's pages", async ({ page }) => {
    const res = await page.goto(`${versions}/v1/legacy-apis`);
    expect(res?.status()).toBe(404);
    const first = page.getByRole('region', { name: 'Did you mean' }).getByRole('listitem').getByRole('link').first();
    await expect(first).toHaveText('Legacy API');
    await expect(first).toHaveAttribute('href', '/v1/legacy-api');
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the search icon opens a full-screen dialog with a Cancel button', async ({ page }) => {
    await page.goto(`${demo}/quickstart`);
    const button = page.getByRole('banner').getByRole('button', { name: 'Search' });
    await expect(button).toBeVisible();
    await button.tap();
    const dialog = dialogOf(page);
    await expect(dialog).toBeVisible();
    const box = await dialog.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 390 });
    expect(box!.height).toBeGreaterThanOrEqual(800);
    await dialog.getByRole('combobox').fill('builds');
    await expect(dialog.getByRole('option').first()).toBeVisible();
    // nothing overflows the phone's width
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const cancel = dialog.getByRole('button', { name: 'Close search' });
    await expect(cancel).toHaveText(/Cancel/);
    await cancel.tap();
    await expect(dialog).toBeHidden();
  });
});

test.describe('404 page', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('suggests the closest pages and offers search', async ({ page }) => {
    const res = await page.goto(`${demo}/concepts/bilds`);
    expect(res?.status()).toBe(404);
    const main = page.getByRole('main');
    const suggestions = main.getByRole('region', { name: 'Did you mean' });
    await expect(suggestions).toBeVisible();
    const links = suggestions.getByRole('listitem').getByRole('link');
    expect(await links.count()).toBeLessThanOrEqual(5);
    await expect(links.first()).toHaveText('Builds');

    await main.getByRole('button', { name: 'Search the documentation' }).click();
    await expect(dialogOf(page)).toBeVisible();
    await page.keyboard.press('Escape');

    await links.first().click();
    await expect(page).toHaveURL(`${demo}/concepts/builds`);
    await expect(page.getByRole('heading', { level: 1, name: 'Builds' })).toBeVisible();
  });

  test('a page moved to another folder is found by its name', async ({ page }) => {
    await page.goto(`${demo}/guides-old/quickstart.html`);
    await expect(page.getByRole('region', { name: 'Did you mean' }).getByRole('listitem').getByRole('link').first()).toHaveText('Quickstart');
  });
});
