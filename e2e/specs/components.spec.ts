import { expect, test } from '@playwright/test';
import { siteUrl } from '../fixtures/sites';

/** Page components of the demo docs (examples/demo-docs) behaving in the browser. */
const demo = siteUrl('demo');

test.use({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });

test.describe('Steps', () => {
  test('render as one ordered list numbered 1, 2, 3 in source order', async ({ page }) => {
    await page.goto(`${demo}/writing/steps-tabs-accordions`);
    const steps = page.getByRole('main').getByRole('list').filter({ hasText: 'Write' }).filter({ hasText: 'Publish' }).last();
    expect(await steps.evaluate((el) => el.tagName)).toBe('OL');
    const items = steps.getByRole('listitem');
    await expect(items).toHaveCount(3);
    await expect(items.locator('.q-step-title')).toHaveText(['Write', 'Review', 'Publish']);
    await expect(items.locator('.q-step-number')).toHaveText(['1', '2', '3']);
    // a titled step is deep-linkable
    await expect(items.first()).toHaveAttribute('id', 'write');
  });
});

test.describe('Tabs', () => {
  test('clicking a tab shows its panel and hides the others', async ({ page }) => {
    await page.goto(`${demo}/writing/steps-tabs-accordions`);
    const main = page.getByRole('main');
    const macos = main.getByRole('tab', { name: 'macOS' });
    const debian = main.getByRole('tab', { name: 'Debian' });
    await expect(macos).toHaveAttribute('aria-selected', 'true');
    await expect(main.getByRole('tabpanel')).toHaveCount(1);
    await expect(main.getByRole('tabpanel')).toContainText('brew install');

    await debian.click();
    await expect(debian).toHaveAttribute('aria-selected', 'true');
    await expect(macos).toHaveAttribute('aria-selected', 'false');
    await expect(main.getByRole('tabpanel')).toHaveCount(1);
    await expect(main.getByRole('tabpanel')).toContainText('apt-get install');
    await expect(main.getByText('brew install')).toBeHidden();
  });

  test('arrow keys move between tabs', async ({ page }) => {
    await page.goto(`${demo}/writing/steps-tabs-accordions`);
    const main = page.getByRole('main');
    await main.getByRole('tab', { name: 'macOS' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(main.getByRole('tab', { name: 'Debian' })).toBeFocused();
    await expect(main.getByRole('tab', { name: 'Debian' })).toHaveAttribute('aria-selected', 'true');
    await expect(main.getByRole('tabpanel')).toContainText('apt-get install');
  });
});

test.describe('Accordion', () => {
  const title = 'Are accordions deep-linkable?';
  const body = 'Each accordion has an id';

  test('opens and closes on click', async ({ page }) => {
    await page.goto(`${demo}/writing/steps-tabs-accordions`);
    const main = page.getByRole('main');
    await expect(main.getByText(body)).toBeHidden();
    await main.getByText(title).click();
    await expect(main.getByText(body)).toBeVisible();
    await main.getByText(title).click();
    await expect(main.getByText(body)).toBeHidden();
  });

  test('opens when the URL names it (#id deep link)', async ({ page }) => {
    await page.goto(`${demo}/writing/steps-tabs-accordions#are-accordions-deep-linkable`);
    await expect(page.getByRole('main').getByText(body)).toBeVisible();
    await expect(page.locator('#are-accordions-deep-linkable')).toBeInViewport();
  });

  test('an AccordionGroup holds independent accordions', async ({ page }) => {
    await page.goto(`${demo}/concepts/builds`);
    const main = page.getByRole('main');
    const first = main.getByText('Can a failed build take my site down?');
    const second = main.getByText('What happens if the server restarts mid-build?');
    await expect(first).toBeVisible();
    await expect(second).toBeVisible();
    await expect(main.getByText('How fast is a rebuild?')).toBeVisible();
    const open = main.locator('details.q-accordion[open]');
    await expect(open).toHaveCount(0);
    await first.click();
    await expect(open).toHaveCount(1);
    await second.click();
    await expect(open).toHaveCount(2);
    await expect(main.getByText('How fast is a rebuild?')).toBeVisible();
  });
});

test.describe('Code blocks', () => {
  test('a titled block shows its file name and marks the highlighted line', async ({ page }) => {
    await page.goto(`${demo}/writing/code-blocks`);
    const figure = page.getByRole('main').getByRole('figure').filter({ hasText: 'server.ts' });
    await expect(figure.locator('figcaption')).toHaveText('server.ts');
    const lines = figure.locator('pre.shiki .line');
    await expect(lines).toHaveCount(4);
    // fence meta {3}: the third line is highlighted, and looks different from the others
    await expect(lines.nth(2)).toHaveClass(/highlighted/);
    const bg = (i: number) => lines.nth(i).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bg(2)).not.toBe(await bg(0));
  });

  test('a keyword has one color on every line, in light and in dark mode', async ({ page }) => {
    await page.goto(`${demo}/writing/code-blocks`);
    const pre = page.getByRole('main').getByRole('figure').filter({ hasText: 'server.ts' }).locator('pre.shiki');
    // server.ts uses `await` on lines 3 and 4 (line 3 is the highlighted one)
    const awaitColors = () =>
      pre.locator('.line > span').evaluateAll((spans) =>
        spans.filter((s) => s.textContent?.trim() === 'await').map((s) => getComputedStyle(s).color),
      );
    const light = await awaitColors();
    expect(light).toHaveLength(2);
    expect(light[1], 'light theme: `await` on line 3 vs line 4').toBe(light[0]);
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    const dark = await awaitColors();
    expect(dark[1], 'dark theme: `await` on line 3 vs line 4').toBe(dark[0]);
    expect(dark[0]).not.toBe(light[0]);
  });

  test('a CodeGroup switches files and its copy button copies the visible code', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: demo });
    await page.goto(`${demo}/writing/code-blocks`);
    const main = page.getByRole('main');
    const group = main.locator('[data-q-tabs]').filter({ has: page.getByRole('tab', { name: 'fetch.js' }) });
    await expect(group.getByRole('tab', { name: 'curl' })).toHaveAttribute('aria-selected', 'true');
    await group.getByRole('tab', { name: 'fetch.js' }).click();
    await expect(group.getByRole('tab', { name: 'fetch.js' })).toHaveAttribute('aria-selected', 'true');
    const panel = group.getByRole('tabpanel');
    await expect(panel).toHaveCount(1);
    await expect(panel).toContainText('console.log(await res.json());');
    await expect(group.getByText('curl http://127.0.0.1:4000')).toBeHidden();

    await panel.getByRole('button', { name: 'Copy code' }).click();
    await expect(panel.getByRole('button', { name: 'Copied' })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain("const res = await fetch('http://127.0.0.1:4000/v1/projects', {");
    expect(copied).toContain('console.log(await res.json());');
    // the copied state goes back to the plain button after a moment
    await expect(panel.getByRole('button', { name: 'Copy code' })).toBeVisible({ timeout: 5_000 });
  });

  test('the chosen CodeGroup language is remembered on the next page load', async ({ page }) => {
    await page.goto(`${demo}/writing/code-blocks`);
    await page.getByRole('main').getByRole('tab', { name: 'client.py' }).click();
    await page.reload();
    await expect(page.getByRole('main').getByRole('tab', { name: 'client.py' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('main').getByRole('tabpanel').filter({ hasText: 'import os, requests' })).toBeVisible();
  });
});

test.describe('Anchors written by authors', () => {
  test('an author id is published with the user-content- prefix, and #id still scrolls to it', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 400 });
    await page.goto(`${demo}/writing/pages#glossary-deployment`);
    const entry = page.getByRole('main').getByText('one build\'s output, served at the site\'s address');
    await expect(entry).toHaveAttribute('id', 'user-content-glossary-deployment');
    await expect(entry).toBeInViewport();
    // the same-page link works too
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('link', { name: 'the glossary entry' }).click();
    await expect(entry).toBeInViewport();
  });
});

test.describe('Glossary', () => {
  test('a term shows its definition as a tooltip on focus and on hover, and Escape hides it', async ({ page }) => {
    await page.goto(`${demo}/writing/steps-tabs-accordions`);
    const term = page.getByRole('main').getByRole('term').filter({ hasText: 'preview build' });
    await expect(term).toHaveCount(1);
    const tip = page.getByRole('tooltip');
    await expect(tip).toBeHidden();
    await term.focus();
    await expect(tip).toBeVisible();
    await expect(tip).toHaveText('A build of a branch, served at its own address; the production site does not change.');
    await expect(term).toHaveAccessibleDescription('A build of a branch, served at its own address; the production site does not change.');
    await page.keyboard.press('Escape');
    await expect(tip).toBeHidden();
    await term.blur();
    await term.hover();
    await expect(tip).toBeVisible();
  });
});
