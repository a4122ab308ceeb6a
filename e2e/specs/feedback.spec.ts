import { expect, test } from '@playwright/test';
import { DesktopStack } from '../fixtures/desktop-stack';
import { watchCsp } from '../fixtures/sites';

/**
 * Reader feedback on a built site (interface-spec.md "Feedback"; decisions.md sections 6-7): a real
 * Quire server of its own builds a small docs site; a reader answers "Was this page helpful?" with a
 * comment and votes on sections with the thumbs next to their headings (by mouse and by keyboard),
 * and the stats API counts each answer once. A reload remembers what was answered.
 */
const PORT = Number(process.env.QUIRE_E2E_FEEDBACK_PORT ?? 4384);
const SLUG = 'feedback';

const stack = new DesktopStack('feedback', PORT);
const site = `http://${SLUG}-docs.localhost:${PORT}`;
let projectId = '';

/** The public stats of a page, as any client reads them (no key). */
async function stats(kind: 'page' | 'section', pagePath: string): Promise<unknown> {
  const res = await fetch(`${stack.serverUrl}/v1/projects/${projectId}/feedback/${kind}?pagePath=${encodeURIComponent(pagePath)}`);
  return ((await res.json()) as { data: unknown }).data;
}

test.describe.configure({ mode: 'serial', timeout: 60_000 });
test.use({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  await stack.startServer();
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({ name: 'Feedback Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'setup'] }] } }),
    'index.mdx': '---\ntitle: Welcome\n---\n\nWelcome to the docs.\n',
    'setup.mdx': '---\ntitle: Setup\n---\n\nGet going.\n\n## Install the CLI\n\nRun the installer.\n\n## Configure\n\nEdit the file.\n\n### Advanced options\n\nTune it.\n',
  };
  ({ projectId } = await stack.deployFiles(SLUG, 'Feedback docs', files));
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
});

test('a reader answers "Was this page helpful?" with a comment; the stats count it and a reload says thanks', async ({ page }) => {
  const csp = watchCsp(page);
  await page.goto(`${site}/setup`);
  const question = page.getByRole('group', { name: 'Was this page helpful?' });
  await question.getByRole('button', { name: 'Yes' }).click();
  const form = page.getByRole('form', { name: 'Page feedback' });
  const comment = form.getByRole('textbox', { name: 'What helped? (optional)' });
  await expect(comment).toBeFocused();
  await expect(comment).toHaveAttribute('maxlength', '1000');
  await comment.fill('The install steps were clear.');
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Thanks for your feedback!' })).toBeVisible();
  await expect(form).toBeHidden();

  expect(await stats('page', 'setup')).toEqual({ helpful: 1, notHelpful: 0, total: 1 });
  const pages = await stack.call('GET', `/projects/${projectId}/feedback/pages`);
  const setup = (pages.json.data as unknown as Array<{ pagePath: string; comments: Array<{ comment: string }> }>).find((p) => p.pagePath === 'setup');
  expect(setup?.comments.map((c) => c.comment)).toEqual(['The install steps were clear.']);

  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Thanks for your feedback!' })).toBeVisible();
  await expect(question.getByRole('button', { name: 'Yes' })).toHaveAttribute('aria-pressed', 'true');
  await question.getByRole('button', { name: 'No' }).click();
  await expect(page.getByRole('form', { name: 'Page feedback' })).toHaveCount(0);
  expect(await stats('page', 'setup')).toEqual({ helpful: 1, notHelpful: 0, total: 1 });
  expect(csp).toEqual([]);
});

test('a reader votes on a section with the thumbs next to its heading, by mouse and by keyboard', async ({ page }) => {
  const csp = watchCsp(page);
  await page.goto(`${site}/setup`);
  const main = page.getByRole('main');
  // the heading keeps its own name: the vote buttons sit beside it, not inside it
  const heading = main.getByRole('heading', { name: /^Install the CLI( Link to this section)?$/, level: 2 });
  await expect(heading).toBeVisible();

  await heading.hover();
  const up = main.getByRole('button', { name: 'Helpful: Install the CLI', exact: true });
  await expect(up).toBeVisible();
  await up.click();
  await expect(up).toHaveAttribute('aria-pressed', 'true');
  const form = page.getByRole('form', { name: 'Feedback on Install the CLI' });
  await expect(form.getByRole('textbox')).toHaveAttribute('maxlength', '500');
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(main.getByRole('group', { name: 'Was this section helpful? Install the CLI' }).getByRole('status')).toHaveText('Thanks!');

  // keyboard only: Tab reaches the buttons of "Advanced options" (an h3), Enter votes, the comment takes text, Enter on Send sends
  const down = main.getByRole('button', { name: 'Not helpful: Advanced options' });
  await main.getByRole('button', { name: 'Helpful: Advanced options', exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(down).toBeFocused();
  await page.keyboard.press('Enter');
  const comment = page.getByRole('form', { name: 'Feedback on Advanced options' }).getByRole('textbox', { name: 'Comment on “Advanced options” (optional)' });
  await expect(comment).toBeFocused();
  await page.keyboard.type('Which options exist?');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(down).toBeFocused();
  await expect(main.getByRole('group', { name: 'Was this section helpful? Advanced options' }).getByRole('status')).toHaveText('Thanks!');

  expect(await stats('section', 'setup')).toEqual([
    { sectionId: 'advanced-options', upvotes: 0, downvotes: 1 },
    { sectionId: 'install-the-cli', upvotes: 1, downvotes: 0 },
  ]);
  const pages = await stack.call('GET', `/projects/${projectId}/feedback/pages`);
  const setup = (pages.json.data as unknown as Array<{ pagePath: string; comments: Array<{ sectionId: string | null; comment: string }> }>).find((p) => p.pagePath === 'setup');
  expect(setup?.comments).toContainEqual(expect.objectContaining({ sectionId: 'advanced-options', comment: 'Which options exist?' }));

  await page.reload();
  await expect(main.getByRole('button', { name: 'Helpful: Install the CLI', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(main.getByRole('button', { name: 'Not helpful: Advanced options' })).toHaveAttribute('aria-pressed', 'true');
  await expect(main.getByRole('button', { name: 'Helpful: Configure', exact: true })).toHaveAttribute('aria-pressed', 'false');
  expect(csp).toEqual([]);
});

test('a vote left without pressing Send still counts once the reader moves on', async ({ page }) => {
  await page.goto(`${site}/setup`);
  await page.getByRole('main').getByRole('button', { name: 'Helpful: Configure', exact: true }).click();
  await expect(page.getByRole('form', { name: 'Feedback on Configure' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Documentation' }).getByRole('link', { name: 'Welcome' }).click();
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText('Welcome');
  await expect.poll(async () => stats('section', 'setup')).toContainEqual({ sectionId: 'configure', upvotes: 1, downvotes: 0 });
});
