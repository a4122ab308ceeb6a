import { expect, test } from '@playwright/test';
import { watchPageProblems } from '../fixtures/page-health';
import { siteUrl } from '../fixtures/sites';

/** Dark mode (demo site: default theme 'system') and clean page loads under the site's CSP. */
const demo = siteUrl('demo');

test.describe('dark mode', () => {
  test.use({ colorScheme: 'light' });

  test('the toggle switches to dark, and the choice survives a reload', async ({ page }) => {
    await page.goto(`${demo}/quickstart`);
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'light');
    const bodyBg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const lightBg = await bodyBg();

    const toDark = page.getByRole('button', { name: 'Switch to dark mode' });
    await expect(toDark).toHaveAttribute('aria-pressed', 'false');
    await toDark.click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    const toLight = page.getByRole('button', { name: 'Switch to light mode' });
    await expect(toLight).toHaveAttribute('aria-pressed', 'true');
    expect(await bodyBg()).not.toBe(lightBg);

    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();
    // the choice is site-wide: another page opens dark too
    await page.goto(`${demo}/concepts/sites`);
    await expect(html).toHaveAttribute('data-theme', 'dark');

    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    await expect(html).toHaveAttribute('data-theme', 'light');
    expect(await bodyBg()).toBe(lightBg);
  });

  test('the dark theme is applied before the first paint (no light flash)', async ({ page }) => {
    await page.goto(`${demo}/`);
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    // record data-theme at the first moment the DOM exists, before any deferred script runs
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { __themeAtDom: string | null }).__themeAtDom = document.documentElement.getAttribute('data-theme');
      });
    });
    await page.reload();
    expect(await page.evaluate(() => (window as unknown as { __themeAtDom: string | null }).__themeAtDom)).toBe('dark');
  });
});

test.describe('system color scheme', () => {
  test.use({ colorScheme: 'dark' });

  test('a reader whose system is dark gets the dark theme without touching the toggle', async ({ page }) => {
    await page.goto(`${demo}/`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();
  });
});

test.describe('clean page loads', () => {
  /** Pages to load, with the files their docs lack (pezzo's build log warns: missing-image logo.light, banner.png). */
  const PAGES: { url: string; knownMissing?: string[] }[] = [
    { url: `${demo}/` },
    { url: `${demo}/writing/code-blocks` },
    { url: `${demo}/writing/steps-tabs-accordions` },
    { url: `${demo}/writing/callouts-and-cards` },
    { url: `${demo}/api-reference/introduction` },
    { url: `${siteUrl('pezzo')}/`, knownMissing: ['/logo/light.svg', '/banner.png'] },
    { url: `${siteUrl('agentops')}/v2/quickstart` },
  ];
  for (const { url, knownMissing } of PAGES) {
    test(`no console errors, script errors, CSP violations or broken resources: ${url}`, async ({ page }) => {
      const problems = watchPageProblems(page, knownMissing);
      const res = await page.goto(url, { waitUntil: 'load' });
      expect(res?.status()).toBe(200);
      // the page's deferred scripts ran (the theme toggle got its label from site.js)
      await expect(page.locator('html')).toHaveAttribute('data-theme', /^(light|dark)$/);
      expect(await problems.collect()).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [], failedRequests: [] });
    });
  }
});
