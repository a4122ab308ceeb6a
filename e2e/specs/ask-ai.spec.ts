import { expect, test, type Locator, type Page } from '@playwright/test';
import { siteUrl, watchCsp } from '../fixtures/sites';
import { VERSIONS_SLUG } from '../fixtures/versioned-site';

/**
 * The site's "Ask AI" panel on the demo site, against the real `/_quire/chat` (the default answerer:
 * no model): the top bar's button opens a side sheet; a question the docs answer streams an answer
 * citing the right page, with the citation and the source list linking to it; the conversation is
 * still there on the next page and in the list of previous conversations; a question the docs do
 * not answer gets the "not in the docs" answer; Escape closes and gives focus back; full screen on a
 * phone; search offers "Ask AI about ..." when it finds nothing. Error answers (usage limit, rate
 * limit, assistant off) are simulated at the network layer, since the e2e server cannot reach them.
 */
const demo = siteUrl('demo');

const askButton = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'Ask AI' });
const panelOf = (page: Page) => page.getByRole('dialog', { name: 'Ask AI' });
const threadOf = (panel: Locator) => panel.getByRole('log', { name: 'Conversation' });

/** Opens the panel from the top bar and returns it. */
async function openPanel(page: Page): Promise<Locator> {
  const button = askButton(page);
  await expect(button).toBeVisible();
  await button.click();
  const panel = panelOf(page);
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('textbox', { name: 'Your question' })).toBeFocused();
  return panel;
}

/** Asks `question` in the open panel and waits until its answer has finished streaming. */
async function ask(panel: Locator, question: string): Promise<void> {
  await panel.getByRole('textbox', { name: 'Your question' }).fill(question);
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(threadOf(panel).getByText(question, { exact: true })).toBeVisible();
  await expect(threadOf(panel)).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
  await expect(panel.getByRole('button', { name: 'Send' })).toBeVisible();
}

const ANSWERABLE = 'Can a failed build take my site down?';
const UNANSWERABLE = 'How do I configure Kubernetes pod autoscaling for the dashboard?';

test.describe('Ask AI panel', () => {
  test.use({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });

  test('answers a question from the docs with a citation linking to the page, and keeps the conversation', async ({ page }) => {
    const csp = watchCsp(page);
    await page.goto(`${demo}/quickstart`);
    const panel = await openPanel(page);
    await ask(panel, ANSWERABLE);

    const thread = threadOf(panel);
    const answer = thread.locator('.q-ask-msg-assistant').last();
    await expect(answer).not.toContainText(/not in the docs/i);
    // the answer cites the Builds page: an inline [n] link and the numbered source list
    const cite = answer.getByRole('link', { name: /^\[\d+\]/ }).and(page.locator('[href^="/concepts/builds"]')).first();
    await expect(cite).toBeVisible();
    await expect(cite).toHaveAttribute('href', /^\/concepts\/builds(#[\w-]+)?$/);
    const sources = answer.getByRole('list', { name: 'Sources' });
    await expect(sources.getByRole('link', { name: /\/concepts\/builds/ }).first()).toHaveAttribute('href', /^\/concepts\/builds(#[\w-]+)?$/);

    // the citation opens the section
    await cite.click();
    await expect(page).toHaveURL(new RegExp(`^${demo}/concepts/builds`));
    await expect(page.getByRole('heading', { level: 1, name: 'Builds' })).toBeVisible();

    // on the next page the panel still shows the conversation, and it is in the list of conversations
    const again = await openPanel(page);
    await expect(threadOf(again).getByText(ANSWERABLE, { exact: true })).toBeVisible();
    await again.getByRole('button', { name: 'New conversation' }).click();
    await expect(threadOf(again).getByText(ANSWERABLE, { exact: true })).toHaveCount(0);
    const history = again.getByRole('button', { name: 'Conversations' });
    await history.click();
    await expect(history).toHaveAttribute('aria-expanded', 'true');
    const previous = again.getByRole('region', { name: 'Previous conversations' });
    const item = previous.getByRole('button', { name: new RegExp(ANSWERABLE.replace(/[?]/g, '\\?')) });
    await expect(item).toBeVisible();
    await item.click();
    // the transcript: the question and its stored answer
    await expect(previous).toBeHidden();
    await expect(threadOf(again).getByText(ANSWERABLE, { exact: true })).toBeVisible();
    await expect(threadOf(again).locator('.q-ask-msg-assistant')).toHaveCount(1);
    await expect(threadOf(again).locator('.q-ask-msg-assistant')).not.toBeEmpty();

    // Escape closes and gives focus back to the button
    await page.keyboard.press('Escape');
    await expect(again).toBeHidden();
    await expect(askButton(page)).toBeFocused();
    expect(csp).toEqual([]);
  });

  test('a question the docs do not answer gets the "not in the docs" answer, with no citation', async ({ page }) => {
    await page.goto(`${demo}/`);
    const panel = await openPanel(page);
    await ask(panel, UNANSWERABLE);
    const answer = threadOf(panel).locator('.q-ask-msg-assistant').last();
    await expect(answer).toContainText(/not in the docs/i);
    await expect(answer.getByRole('link')).toHaveCount(0);
  });

  test('Ctrl-I opens it; Close closes it; the question box is labelled and sends with Enter', async ({ page }) => {
    await page.goto(`${demo}/concepts/projects`);
    await expect(askButton(page)).toBeVisible();
    await page.locator('body').press('Control+i');
    const panel = panelOf(page);
    await expect(panel).toBeVisible();
    const box = panel.getByRole('textbox', { name: 'Your question' });
    await expect(box).toBeFocused();
    await box.fill(UNANSWERABLE);
    await box.press('Enter');
    await expect(threadOf(panel).getByText(UNANSWERABLE, { exact: true })).toBeVisible();
    await expect(box).toHaveValue('');
    await expect(threadOf(panel)).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
    // focus stays in the panel, both ways round
    const inPanel = () => page.evaluate(() => document.getElementById('q-ask')!.contains(document.activeElement));
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect(await inPanel()).toBe(true);
    }
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await inPanel()).toBe(true);
    }
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(panel).toBeHidden();
  });

  test('search offers "Ask AI about" a query it finds nothing for, and the panel asks it', async ({ page }) => {
    await page.goto(`${demo}/`);
    await expect(askButton(page)).toBeVisible();
    await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
    const search = page.getByRole('dialog', { name: 'Search the documentation' });
    await search.getByRole('combobox').fill('qwxzzyplk');
    const offer = search.getByRole('button', { name: 'Ask AI about \u201cqwxzzyplk\u201d' });
    await expect(offer).toBeVisible();
    await offer.click();
    await expect(search).toBeHidden();
    const panel = panelOf(page);
    await expect(panel).toBeVisible();
    await expect(threadOf(panel).getByText('qwxzzyplk', { exact: true })).toBeVisible();
    await expect(threadOf(panel)).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('banner').getByRole('button', { name: 'Search' })).toBeFocused();
  });

  test('says clearly when the usage limit or the rate limit stops an answer, and keeps the question', async ({ page }) => {
    let status = 403;
    await page.route(`${demo}/_quire/chat`, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const error = status === 403
        ? { code: 'usage_limit_exceeded', message: 'The monthly limit of assistant answers is reached.' }
        : { code: 'rate_limited', message: 'Too many requests.' };
      await route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ error }) });
    });
    await page.goto(`${demo}/`);
    const panel = await openPanel(page);
    const box = panel.getByRole('textbox', { name: 'Your question' });
    await box.fill('What is a project?');
    await box.press('Enter');
    await expect(panel.getByRole('alert')).toHaveText(/answered as many questions as this site allows/);
    await expect(box).toHaveValue('What is a project?');
    status = 429;
    await box.press('Enter');
    await expect(panel.getByRole('alert').last()).toHaveText(/Too many questions in a short time/);
  });

  test('answer text stays text: markup in it is shown as written, only known citations become links', async ({ page }) => {
    const sources = [{ title: 'Builds', path: 'concepts/builds', url: '/concepts/builds#statuses' }];
    const content = 'Use <img src=x onerror="document.title=1"> and **statuses** [1], not [9].';
    const events = [
      ['session', { sessionId: '5b0b6c7e-1c1d-4f0e-9a59-0f6f1d1e2a3b' }],
      ['sources', sources],
      ['delta', { text: content.slice(0, 20) }],
      ['delta', { text: content.slice(20) }],
      ['done', { sessionId: '5b0b6c7e-1c1d-4f0e-9a59-0f6f1d1e2a3b', message: { id: 'a0b1c2d3-0000-4000-8000-000000000000', role: 'assistant', content, createdAt: new Date().toISOString() }, sources }],
    ] as const;
    await page.route(`${demo}/_quire/chat`, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 200,
            contentType: 'text/event-stream; charset=utf-8',
            // CRLF line ends are valid server-sent events too
            body: events.map(([name, data]) => `event: ${name}\r\ndata: ${JSON.stringify(data)}\r\n\r\n`).join(''),
          })
        : route.continue(),
    );
    await page.goto(`${demo}/`);
    const panel = await openPanel(page);
    await ask(panel, 'How do statuses work?');
    const answer = threadOf(panel).locator('.q-ask-msg-assistant').last();
    await expect(answer).toContainText('Use <img src=x onerror="document.title=1"> and statuses');
    await expect(answer.locator('img')).toHaveCount(0);
    await expect(answer.getByRole('link', { name: /^\[1\]/ })).toHaveAttribute('href', '/concepts/builds#statuses');
    await expect(answer.getByRole('link', { name: /^\[9\]/ })).toHaveCount(0);
    await expect(answer).toContainText('[9]');
    expect(await page.title()).not.toBe('1');
    // "Copy answer" copies the text as written
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: demo });
    await answer.getByRole('button', { name: 'Copy answer' }).click();
    await expect(answer.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(content);
  });

  test('the button stays hidden when the assistant is off', async ({ page }) => {
    await page.route(`${demo}/_quire/chat`, (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ error: { code: 'not_found', message: 'Not found.' } }) }),
    );
    await page.goto(`${demo}/`);
    // search works as before; Ask AI never appears
    await expect(page.getByRole('banner').getByRole('button', { name: 'Search' })).toBeVisible();
    await expect(page.locator('[data-q-ask-open]')).toBeHidden();
    await expect(page.locator('[data-q-ask-open]')).toHaveAttribute('hidden', '');
  });
});

test.describe('in a documentation version', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('answers from the version being read, and cites that version\'s page', async ({ page }) => {
    await page.goto(`${siteUrl(VERSIONS_SLUG)}/v1/install`);
    const panel = await openPanel(page);
    await ask(panel, 'How do I install it with the old installer?');
    const answer = threadOf(panel).locator('.q-ask-msg-assistant').last();
    await expect(answer.getByRole('link', { name: /^\[1\]/ })).toHaveAttribute('href', /^\/v1\/install(#[\w-]+)?$/);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the button is an icon and the panel takes the whole screen', async ({ page }) => {
    await page.goto(`${demo}/quickstart`);
    const button = askButton(page);
    await expect(button).toBeVisible();
    const box = await button.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(40);
    await button.click();
    const panel = panelOf(page);
    await expect(panel).toBeVisible();
    // measured once the opening slide (if motion is allowed) has ended
    await panel.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
    const rect = await panel.boundingBox();
    expect(rect).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    // nothing overflows the screen sideways
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(panel).toBeHidden();
  });
});
