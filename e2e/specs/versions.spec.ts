import { expect, test } from '@playwright/test';
import { getFromSite, siteUrl } from '../fixtures/sites';
import { VERSIONS_SLUG } from '../fixtures/versioned-site';

/**
 * Documentation versions as a reader meets them (interface-spec.md "Versioning > Documentation
 * versions"; the `versions` site of global-setup.ts: v3 latest at `/`, v2 from a branch, v1 from a
 * tag and deprecated, `legacy` redirecting to latest): the version switcher with its badges,
 * switching that keeps the page (or lands on the version's first page), the deprecated banner, and
 * the redirect to latest.
 */
const site = siteUrl(VERSIONS_SLUG);

test.describe('documentation versions', () => {
  test('the switcher lists every version, latest and deprecated badged, the current one shown', async ({ page }) => {
    await page.goto(`${site}/install`);
    await expect(page.getByText('Install version three with pnpm.')).toBeVisible();
    const switcher = page.getByLabel('Version: v3 (latest)');
    await expect(switcher).toBeVisible();
    await switcher.click();
    const menu = page.getByRole('banner');
    await expect(menu.getByRole('link', { name: 'v3 latest' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'v3 latest' })).toHaveAttribute('aria-current', 'true');
    await expect(menu.getByRole('link', { name: 'v2', exact: true })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'v1 deprecated' })).toBeVisible();
    await expect(page.getByRole('note', { name: 'Deprecated version' })).toHaveCount(0);
  });

  test('switching version keeps the page being read', async ({ page }) => {
    await page.goto(`${site}/install`);
    await page.getByLabel('Version: v3 (latest)').click();
    await page.getByRole('banner').getByRole('link', { name: 'v2', exact: true }).click();
    await expect(page).toHaveURL(`${site}/v2/install`);
    await expect(page.getByRole('heading', { level: 1, name: 'Install' })).toBeVisible();
    await expect(page.getByText('Install version two with pnpm.')).toBeVisible();
    await expect(page.getByLabel('Version: v2')).toBeVisible();
  });

  test('switching to a version that lacks the page lands on its first page', async ({ page }) => {
    await page.goto(`${site}/whats-new`);
    await page.getByLabel('Version: v3 (latest)').click();
    await page.getByRole('banner').getByRole('link', { name: 'v1 deprecated' }).click();
    await expect(page).toHaveURL(`${site}/v1/`);
    await expect(page.getByText('Welcome to version one.')).toBeVisible();
  });

  test('a deprecated version shows a banner linking to the same page on latest', async ({ page }) => {
    await page.goto(`${site}/v1/install`);
    const banner = page.getByRole('note', { name: 'Deprecated version' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('You are reading the documentation of v1, a deprecated version.');
    await expect(page.getByLabel('Version: v1 (deprecated)')).toBeVisible();
    // a version's own links stay in the version
    await page.getByRole('navigation').getByRole('link', { name: 'Legacy API' }).first().click();
    await expect(page).toHaveURL(`${site}/v1/legacy-api`);
    await page.getByRole('note', { name: 'Deprecated version' }).getByRole('link', { name: 'Go to the latest version (v3)' }).click();
    await expect(page).toHaveURL(`${site}/`);
    await expect(page.getByText('Welcome to version three.')).toBeVisible();
  });

  test('a version with autoRedirectToLatest answers 302 to the same path on latest', async ({ page, request }) => {
    const res = await getFromSite(request, VERSIONS_SLUG, '/legacy/install');
    expect(res.status()).toBe(302);
    expect(res.headers().location).toBe('/install');
    await page.goto(`${site}/legacy/install`);
    await expect(page).toHaveURL(`${site}/install`);
    await expect(page.getByText('Install version three with pnpm.')).toBeVisible();
  });
});
