import { expect, test, type Page } from '@playwright/test';
import { DesktopStack } from '../fixtures/desktop-stack';

/**
 * The page actions beside a page's title (decisions.md section 6; Mintlify's contextual menu) as a
 * reader uses them: a real Quire server of its own builds two small sites, one without `contextual`
 * in docs.json (the default actions) and one choosing and ordering them with `contextual.options`.
 */
const PORT = Number(process.env.QUIRE_E2E_PAGE_ACTIONS_PORT ?? 4406);
const stack = new DesktopStack('page-actions', PORT);
const siteOf = (slug: string) => `http://${slug}-docs.localhost:${PORT}`;

/** Builds a site from `docsJson` and two pages, and waits until it is deployed. */
async function deploySite(slug: string, docsJson: Record<string, unknown>): Promise<void> {
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({ name: 'Actions Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'setup'] }] }, ...docsJson }),
    'index.mdx': '---\ntitle: Welcome\n---\n\nWelcome to the docs.\n',
    'setup.mdx': '---\ntitle: Setup\ndescription: How to install it.\n---\n\nInstall it with `npm i acme`.\n\n## Configure\n\nSet ACME_KEY.\n',
  };
  await stack.deployFiles(slug, slug, files);
}

const header = (page: Page) => page.getByRole('main').locator('header');
const menuButton = (page: Page) => header(page).getByRole('button', { name: 'More page actions' });
const menu = (page: Page) => page.getByRole('menu', { name: 'Page actions' });

test.describe.configure({ mode: 'serial', timeout: 60_000 });
test.use({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  await stack.startServer();
  await deploySite('actions', {});
  await deploySite('chosen', { contextual: { options: ['view', 'claude', 'copy', 'mcp'] } });
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
});

test('the default actions open from a menu button, and the keyboard moves through them', async ({ page }) => {
  await page.goto(`${siteOf('actions')}/setup`);
  const button = menuButton(page);
  await expect(button).toHaveAttribute('aria-haspopup', 'menu');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(header(page).getByRole('button', { name: 'Copy page' })).toBeVisible();
  await button.click();
  await expect(menu(page)).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const items = menu(page).getByRole('menuitem');
  await expect(items).toHaveCount(4);
  const names = ['Copy page', 'View as Markdown', 'Open in ChatGPT', 'Open in Claude'];
  for (let i = 0; i < names.length; i++) await expect(items.nth(i)).toContainText(names[i]!);
  await expect(items.nth(0)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(items.nth(3)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu(page)).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  // ArrowDown on the menu button opens the menu too
  await page.keyboard.press('ArrowDown');
  await expect(menu(page)).toBeVisible();
  await expect(items.nth(0)).toBeFocused();
});

test("Copy page puts the page's Markdown on the clipboard and says so", async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: siteOf('actions') });
  await page.goto(`${siteOf('actions')}/setup`);
  // fetched by the page (Node's resolver does not know *.localhost)
  const markdown = await page.evaluate(() => fetch('/setup.md').then((r) => r.text()));
  expect(markdown).toContain('Install it with `npm i acme`.');
  const copy = header(page).getByRole('button', { name: 'Copy page' });
  await copy.click();
  await expect(header(page).getByRole('status')).toHaveText('Copied');
  await expect(header(page).getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(markdown);
  // the same from the menu
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await menuButton(page).click();
  await menu(page).getByRole('menuitem', { name: /Copy page/ }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(markdown);
});

test('View as Markdown opens the page\'s .md, and the assistants get the page URL', async ({ page, context }) => {
  await page.goto(`${siteOf('actions')}/setup`);
  await menuButton(page).click();
  const view = menu(page).getByRole('menuitem', { name: /View as Markdown/ });
  await expect(view).toHaveAttribute('href', '/setup.md');
  const [tab] = await Promise.all([context.waitForEvent('page'), view.click()]);
  await tab.waitForLoadState();
  expect(tab.url()).toBe(`${siteOf('actions')}/setup.md`);
  await expect(tab.locator('body')).toContainText('Install it with `npm i acme`.');
  await tab.close();

  const prompt = encodeURIComponent(`Read ${siteOf('actions')}/setup so I can ask questions about it.`);
  await menuButton(page).click();
  await expect(menu(page).getByRole('menuitem', { name: /Open in ChatGPT/ })).toHaveAttribute('href', `https://chatgpt.com/?hints=search&q=${prompt}`);
  await expect(menu(page).getByRole('menuitem', { name: /Open in Claude/ })).toHaveAttribute('href', `https://claude.ai/new?q=${prompt}`);
});

test('contextual.options in docs.json chooses and orders the actions', async ({ page }) => {
  await page.goto(`${siteOf('chosen')}/setup`);
  // the first option is the split button's main part
  await expect(header(page).getByRole('link', { name: 'View as Markdown' })).toHaveAttribute('href', '/setup.md');
  await expect(header(page).getByRole('button', { name: 'Copy page' })).toHaveCount(0);
  await menuButton(page).click();
  const items = menu(page).getByRole('menuitem');
  await expect(items).toHaveCount(4);
  const names = ['View as Markdown', 'Open in Claude', 'Copy page', 'Connect to your AI tool'];
  for (let i = 0; i < names.length; i++) await expect(items.nth(i)).toContainText(names[i]!);
  await expect(menu(page).getByRole('menuitem', { name: /Open in ChatGPT/ })).toHaveCount(0);
  await expect(menu(page).getByRole('menuitem', { name: /Connect to your AI tool/ })).toHaveAttribute('href', '/_quire/mcp');
});
