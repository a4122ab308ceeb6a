import { expect, test } from '@playwright/test';
import { siteUrl } from '../fixtures/sites';
import { tokenColors } from '../fixtures/shiki';

/**
 * The two real-world corpora, opened by their site host names: home page, sidebar navigation, and
 * shiki-highlighted code in light and dark mode.
 */
const CORPORA = [
  // pezzo's mint.json: modeToggle { default: 'dark', isHidden: true } = always dark, no toggle
  { slug: 'pezzo', name: 'Pezzo', codePage: '/client/request-caching', darkOnly: true },
  { slug: 'agentops', name: 'AgentOps', codePage: '/v2/quickstart', darkOnly: false },
];

test.use({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });

for (const site of CORPORA) {
  test.describe(`${site.slug} site`, () => {
    test('home page loads with the site name and the sidebar navigation', async ({ page }) => {
      const res = await page.goto(`${siteUrl(site.slug)}/`);
      expect(res?.status()).toBe(200);
      await expect(page).toHaveTitle(new RegExp(`${site.name}$`));
      await expect(page.getByRole('banner').getByRole('link').getByRole('img', { name: site.name })).toBeVisible();
      await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible();
      const nav = page.getByRole('navigation', { name: 'Documentation' });
      await expect(nav).toBeVisible();
      expect(await nav.getByRole('link').count()).toBeGreaterThan(3);
      // the page being read is marked in the sidebar
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
    });

    test('clicking a sidebar link opens that page and marks it current', async ({ page }) => {
      await page.goto(`${siteUrl(site.slug)}/`);
      const nav = page.getByRole('navigation', { name: 'Documentation' });
      const target = nav.getByRole('link').nth(2);
      const href = await target.getAttribute('href');
      const label = (await target.innerText()).trim();
      expect(href).toMatch(/^\//);
      await target.click();
      await expect(page).toHaveURL(`${siteUrl(site.slug)}${href}`);
      const current = page.getByRole('navigation', { name: 'Documentation' }).getByRole('link', { name: label, exact: true });
      await expect(current.first()).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('navigation', { name: 'Documentation' }).locator('[aria-current="page"]')).toHaveCount(1);
      await expect(page.getByRole('main').getByRole('heading', { level: 1, name: label })).toBeVisible();
    });

    test('code blocks are shiki-highlighted in the site\'s themes', async ({ page }) => {
      await page.goto(`${siteUrl(site.slug)}${site.codePage}`);
      const pre = page.getByRole('main').locator('pre.shiki').first();
      await expect(pre).toBeVisible();
      expect(await pre.locator('.line > span').count()).toBeGreaterThan(2);
      const toggle = page.getByRole('button', { name: 'Switch to dark mode' });
      if (site.darkOnly) {
        await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
        await expect(toggle).toHaveCount(0);
        const dark = await tokenColors(pre);
        expect(dark.computed).toBe(dark.dark);
        return;
      }
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
      const light = await tokenColors(pre);
      expect(light.computed).toBe(light.light);
      await toggle.click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      const dark = await tokenColors(pre);
      expect(dark.computed).toBe(dark.dark);
      expect(dark.computed).not.toBe(light.computed);
    });
  });
}
