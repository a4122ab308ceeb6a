import { expect, test } from '@playwright/test';
import { getFromSite, siteUrl } from '../fixtures/sites';

/** Redirects from docs.json, the 404 page, and the machine-readable answers (llms.txt, a page's .md). */
const demo = siteUrl('demo');

test.describe('redirects', () => {
  test('/docs/quickstart answers 308 and the browser lands on /quickstart', async ({ page, request }) => {
    const res = await getFromSite(request, 'demo', '/docs/quickstart');
    expect(res.status()).toBe(308);
    expect(new URL(res.headers().location ?? '', demo).pathname).toBe('/quickstart');

    const landed = await page.goto(`${demo}/docs/quickstart`);
    expect(await landed?.request().redirectedFrom()?.response().then((r) => r?.status())).toBe(308);
    await expect(page).toHaveURL(`${demo}/quickstart`);
    await expect(page.getByRole('heading', { level: 1, name: 'Quickstart' })).toBeVisible();
  });

  test('/guides/:slug* is a temporary (307) redirect to /writing/:slug*', async ({ page, request }) => {
    const res = await getFromSite(request, 'demo', '/guides/code-blocks');
    expect(res.status()).toBe(307);
    expect(new URL(res.headers().location ?? '', demo).pathname).toBe('/writing/code-blocks');

    const landed = await page.goto(`${demo}/guides/steps-tabs-accordions`);
    expect(await landed?.request().redirectedFrom()?.response().then((r) => r?.status())).toBe(307);
    await expect(page).toHaveURL(`${demo}/writing/steps-tabs-accordions`);
    await expect(page.getByRole('heading', { level: 1, name: 'Steps, tabs and accordions' })).toBeVisible();
  });
});

test.describe('404 page', () => {
  test('an unknown path shows the site\'s 404 page with status 404 and a way home', async ({ page }) => {
    const res = await page.goto(`${demo}/no/such/page`);
    expect(res?.status()).toBe(404);
    expect(res?.headers()['content-type']).toMatch(/^text\/html/);
    await expect(page).toHaveTitle(/Page not found/);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    // the site chrome is there: the reader can navigate on
    await expect(page.getByRole('banner')).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(`${demo}/`);
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('the corpora get their own 404 page too', async ({ page }) => {
    for (const slug of ['pezzo', 'agentops']) {
      const res = await page.goto(`${siteUrl(slug)}/definitely-missing`);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    }
  });
});

test.describe('machine-readable answers', () => {
  test('/llms.txt lists the pages as Markdown links', async ({ request }) => {
    const res = await getFromSite(request, 'demo', '/llms.txt');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^# Quire\n/);
    expect(text).toContain(`[Quickstart](${demo}/quickstart.md)`);
    // every listed link answers
    const links = [...text.matchAll(/\]\((http[^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) {
      expect(link.startsWith(`${demo}/`), link).toBe(true);
      expect((await getFromSite(request, 'demo', new URL(link).pathname)).status(), link).toBe(200);
    }
  });

  test('a page\'s .md answers its Markdown source', async ({ request }) => {
    const res = await getFromSite(request, 'demo', '/quickstart.md');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^text\/markdown/);
    const text = await res.text();
    expect(text).toMatch(/^# Quickstart\n/);
    expect(text).not.toContain('<html');
    expect((await getFromSite(request, 'demo', '/no/such/page.md')).status()).toBe(404);
  });
});
