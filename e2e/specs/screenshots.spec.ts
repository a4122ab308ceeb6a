import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { siteUrl } from '../fixtures/sites';

/**
 * Screenshots of built pages at desktop (1440x900) and phone (390x844) widths, saved under
 * e2e/artifacts/screenshots/ and attached to the test report; on the phone nothing may overflow
 * horizontally and the menu button opens the navigation drawer.
 */
const SHOTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'screenshots');
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const PAGES = [
  { name: 'demo-code-blocks', url: `${siteUrl('demo')}/writing/code-blocks` },
  { name: 'demo-steps-tabs-accordions', url: `${siteUrl('demo')}/writing/steps-tabs-accordions` },
  { name: 'pezzo-home', url: `${siteUrl('pezzo')}/` },
  { name: 'agentops-quickstart', url: `${siteUrl('agentops')}/v2/quickstart` },
];

test.use({ colorScheme: 'light' });

/** Takes a full-page screenshot into SHOTS_DIR/<file>.png and attaches it to the report. */
async function shoot(page: Page, testInfo: TestInfo, file: string, fullPage = true): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const target = path.join(SHOTS_DIR, `${file}.png`);
  await page.screenshot({ path: target, fullPage });
  await testInfo.attach(file, { path: target, contentType: 'image/png' });
}

/** Elements wider than the viewport's right edge (for a readable failure message): "tag.class (right px)". */
function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const limit = window.innerWidth;
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > limit + 0.5 && getComputedStyle(el).position !== 'fixed') {
        out.push(`${el.tagName.toLowerCase()}.${Array.from(el.classList).join('.')} (right ${Math.round(r.right)}px)`);
      }
    }
    return out.slice(0, 15);
  });
}

/** Waits until web fonts and images of the page settled, so the screenshot shows the finished page. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

for (const p of PAGES) {
  test(`${p.name} at desktop width`, async ({ page }, testInfo) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(p.url);
    await settle(page);
    await expect(page.getByRole('navigation', { name: 'Documentation' })).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Open navigation' })).toBeHidden();
    await shoot(page, testInfo, `${p.name}-desktop-1440`);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
  });

  test(`${p.name} at phone width: no horizontal overflow`, async ({ page }, testInfo) => {
    await page.setViewportSize(PHONE);
    await page.goto(p.url);
    await settle(page);
    await shoot(page, testInfo, `${p.name}-phone-390`);
    const widths = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
    expect(widths.scroll, `page is ${widths.scroll}px wide; overflowing: ${(await overflowingElements(page)).join(', ')}`).toBeLessThanOrEqual(widths.inner);
  });
}

test('dark mode at desktop width', async ({ page }, testInfo) => {
  await page.setViewportSize(DESKTOP);
  await page.goto(`${siteUrl('demo')}/writing/code-blocks`);
  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await settle(page);
  await shoot(page, testInfo, 'demo-code-blocks-dark-desktop-1440', false);
});

test('phone: the menu button opens and closes the navigation drawer', async ({ page }, testInfo) => {
  await page.setViewportSize(PHONE);
  await page.goto(`${siteUrl('demo')}/writing/code-blocks`);
  const nav = page.getByRole('navigation', { name: 'Documentation' });
  const menu = page.getByRole('button', { name: 'Open navigation' });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).not.toBeInViewport();

  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(nav).toBeInViewport();
  // focus moves into the drawer, onto the page being read
  await expect(nav.getByRole('link', { name: 'Code blocks' })).toBeFocused();
  await shoot(page, testInfo, 'demo-drawer-phone-390', false);

  await page.getByRole('button', { name: 'Close navigation' }).click();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).not.toBeInViewport();

  // Escape closes it too, and a link in the drawer navigates
  await menu.click();
  await page.keyboard.press('Escape');
  await expect(nav).not.toBeInViewport();
  await menu.click();
  await nav.getByRole('link', { name: 'Quickstart' }).click();
  await expect(page).toHaveURL(`${siteUrl('demo')}/quickstart`);
  await expect(page.getByRole('heading', { level: 1, name: 'Quickstart' })).toBeVisible();
});
