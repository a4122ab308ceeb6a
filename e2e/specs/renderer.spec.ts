import { expect, test, type Locator, type Page } from '@playwright/test';
import { watchPageProblems } from '../fixtures/page-health';
import { siteUrl } from '../fixtures/sites';

/**
 * The renderer's math, diagrams, code block options and views (MINTLIFY-FORMAT.md section 9) and the
 * copy button's place, on the demo docs' page examples/demo-docs/writing/rich-content.mdx.
 */
const demo = siteUrl('demo');
const PAGE = `${demo}/writing/rich-content`;

test.use({ colorScheme: 'light', viewport: { width: 1280, height: 900 } });

/** The code figure whose title bar or first line holds `text`. */
function codeBlock(page: Page, text: string): Locator {
  return page.getByRole('main').getByRole('figure').filter({ hasText: text }).first();
}

test.describe('math', () => {
  test('is rendered by KaTeX with its stylesheet from the site, and no $ source is left', async ({ page }) => {
    const problems = watchPageProblems(page);
    await page.goto(PAGE);
    const main = page.getByRole('main');
    await expect(main.locator('.katex')).toHaveCount(3);
    await expect(main.locator('.katex-display')).toHaveCount(1);
    await expect(main).not.toContainText('$$');
    await expect(main).not.toContainText('$A');
    // the <Latex> source shows only in the (unrendered) MathML annotation, never as text on the page
    await expect(main).not.toContainText('e^{i', { useInnerText: true });
    await expect(main).toContainText('prices such as $5 and $10 stay text');
    // the stylesheet comes from the site's own assets, and applies: the MathML copy is visually hidden
    const href = await page.locator('link[rel="stylesheet"][href*="katex"]').getAttribute('href');
    expect(href).toMatch(/^\/_quire\/assets\/katex\.[0-9a-f]{10}\.css$/);
    const mathml = main.locator('.katex-mathml').first();
    expect(await mathml.evaluate((el) => getComputedStyle(el).position)).toBe('absolute');
    // KaTeX's own font is loaded from the site
    await page.evaluate(() => document.fonts.ready);
    expect(await page.evaluate(() => document.fonts.check('16px KaTeX_Main'))).toBe(true);
    expect(await problems.collect()).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [], failedRequests: [] });
  });

  test('pages without math or diagrams do not load KaTeX or mermaid', async ({ page }) => {
    await page.goto(`${demo}/writing/callouts-and-cards`);
    await expect(page.locator('link[href*="katex"], script[src*="mermaid"]')).toHaveCount(0);
  });
});

test.describe('mermaid', () => {
  test('draws the diagram as SVG under the site CSP, in the light and then the dark theme', async ({ page }) => {
    const problems = watchPageProblems(page);
    await page.goto(PAGE);
    const figure = page.getByRole('main').locator('[data-q-mermaid]');
    const diagram = figure.getByRole('img', { name: 'Diagram' });
    await expect(diagram.locator('svg')).toBeVisible();
    await expect(diagram).toContainText('Review');
    await expect(figure.locator('.q-mermaid-source')).toBeHidden();
    const nodeFill = () => diagram.locator('svg .node rect, svg .node path').first().evaluate((el) => getComputedStyle(el).fill);
    const light = await nodeFill();
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await expect.poll(nodeFill).not.toBe(light);
    await expect(diagram.locator('svg')).toBeVisible();
    expect(await problems.collect()).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [], failedRequests: [] });
  });
});

test.describe('code block options', () => {
  test('focus dims the other lines and lines numbers every line', async ({ page }) => {
    await page.goto(PAGE);
    const lines = codeBlock(page, 'focus.ts').locator('.line');
    await expect(lines).toHaveCount(4);
    await expect(lines.nth(1)).toHaveClass(/focused/);
    const opacity = (i: number) => lines.nth(i).evaluate((el) => Number(getComputedStyle(el).opacity));
    expect(await opacity(0)).toBeLessThan(1);
    expect(await opacity(1)).toBe(1);
    const numbers = await lines.evaluateAll((els) => els.map((el) => getComputedStyle(el, '::before').content));
    expect(numbers.every((c) => c.includes('counter'))).toBe(true);
  });

  test('[!code ++] / [!code --] / [!code highlight] mark lines and are not shown', async ({ page }) => {
    await page.goto(PAGE);
    const block = codeBlock(page, 'diff.ts');
    const lines = block.locator('.line');
    await expect(lines.nth(0)).toHaveClass(/diff remove/);
    await expect(lines.nth(1)).toHaveClass(/diff add/);
    await expect(lines.nth(2)).toHaveClass(/highlighted/);
    await expect(block).not.toContainText('[!code');
    const bg = (i: number) => lines.nth(i).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bg(0)).not.toBe(await bg(1));
  });

  test('wrap wraps a long line where an ordinary block scrolls', async ({ page }) => {
    await page.goto(PAGE);
    const pres = page.getByRole('main').locator('figure.q-code[data-lang="bash"] pre').filter({ hasText: 'prj_123' });
    await expect(pres).toHaveCount(2);
    const scrolls = (i: number) => pres.nth(i).evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    expect(await scrolls(0)).toBe(false);
    expect(await scrolls(1)).toBe(true);
  });

  test('an expandable block opens and closes with its button', async ({ page }) => {
    await page.goto(PAGE);
    const block = codeBlock(page, 'expandable.js');
    const toggle = block.getByRole('button', { name: 'Show all 18 lines' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const pre = block.locator('pre');
    const collapsed = await pre.evaluate((el) => el.clientHeight);
    expect(await pre.evaluate((el) => el.scrollHeight)).toBeGreaterThan(collapsed);
    await toggle.click();
    const less = block.getByRole('button', { name: 'Show less' });
    await expect(less).toHaveAttribute('aria-expanded', 'true');
    expect(await pre.evaluate((el) => el.clientHeight)).toBeGreaterThan(collapsed);
    await less.click();
    await expect(block.getByRole('button', { name: 'Show all 18 lines' })).toBeVisible();
  });
});

test.describe('copy button', () => {
  test('is in the title bar of a titled block on a desktop', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(PAGE);
    const block = codeBlock(page, 'diff.ts');
    await expect(block.locator('figcaption').getByRole('button', { name: 'Copy code' })).toBeVisible();
    await expect(block.locator('.q-code-frame').getByRole('button', { name: 'Copy code' })).toHaveCount(0);
  });

  for (const url of [PAGE, `${demo}/writing/code-blocks`]) {
    test(`never covers code on a 390 px phone (${new URL(url).pathname})`, async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(url);
      const overlaps = await page.getByRole('main').locator('figure.q-code').evaluateAll((figures) => {
        const out: string[] = [];
        for (const figure of figures) {
          const button = figure.querySelector('[data-q-copy]');
          if (!button || !(button as HTMLElement).offsetParent) continue;
          // the code may scroll sideways under the button: test every line's whole box, not its visible part
          const b = button.getBoundingClientRect();
          for (const line of Array.from(figure.querySelectorAll('.line'))) {
            const l = line.getBoundingClientRect();
            const pre = line.closest('pre')!.getBoundingClientRect();
            const left = Math.min(l.left, pre.left);
            const right = Math.max(l.right, pre.right);
            if (l.height > 0 && b.left < right && b.right > left && b.top < l.bottom && b.bottom > l.top) {
              out.push(`${figure.getAttribute('data-lang')}: "${line.textContent?.slice(0, 30)}"`);
            }
          }
        }
        return out;
      });
      expect(overlaps).toEqual([]);
    });
  }
});

test.describe('View', () => {
  test('a labelled selector shows one view at a time and the table of contents follows', async ({ page }) => {
    await page.goto(PAGE);
    const main = page.getByRole('main');
    const selector = main.getByRole('combobox', { name: 'View' });
    await expect(selector).toHaveValue('JavaScript');
    await expect(main.getByRole('heading', { name: 'Install the JavaScript client' })).toBeVisible();
    await expect(main.getByRole('heading', { name: 'Install the Python client' })).toBeHidden();
    const toc = page.getByRole('complementary').filter({ hasText: 'On this page' });
    await expect(toc.getByRole('link', { name: 'Install the Python client' })).toBeHidden();

    await selector.selectOption('Python');
    await expect(main.getByRole('heading', { name: 'Install the Python client' })).toBeVisible();
    await expect(main.getByRole('heading', { name: 'Install the JavaScript client' })).toBeHidden();
    await expect(toc.getByRole('link', { name: 'Install the Python client' })).toBeVisible();
    await expect(toc.getByRole('link', { name: 'Install the JavaScript client' })).toBeHidden();
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('math is rendered, the diagram shows its source, the first view shows, expandable code shows whole', async ({ page }) => {
    await page.goto(PAGE);
    const main = page.getByRole('main');
    await expect(main.locator('.katex')).toHaveCount(3);
    await expect(main.locator('.q-mermaid-source')).toContainText('write[Write] --> review[Review]');
    await expect(main.getByRole('heading', { name: 'Install the JavaScript client' })).toBeVisible();
    await expect(main.getByRole('heading', { name: 'Install the Python client' })).toBeHidden();
    await expect(codeBlock(page, 'expandable.js').getByText('export default steps;')).toBeVisible();
  });
});
