import { expect, test, type Page } from '@playwright/test';
import { DesktopStack } from '../fixtures/desktop-stack';

/**
 * Gated pages as a reader meets them (decisions.md section 6): a real Quire server of its own builds
 * a small docs site whose "Partner Portal" page is gated (`audience: partners`). A visitor without a
 * token sees neither the page nor its entry in the navigation and gets the gate form; the magic link
 * opens it and its cookie keeps it open; a token pasted into the gate form opens it too.
 */
const PORT = Number(process.env.QUIRE_E2E_AUDIENCE_GATE_PORT ?? 4398);
const SLUG = 'gate';
const SECRET = 'Only partners can read this sentence.';

const stack = new DesktopStack('audience-gate', PORT);
const site = `http://${SLUG}-docs.localhost:${PORT}`;
let token = '';

const api = (method: string, route: string, body?: unknown) => stack.call(method, route, body);

const docs = (page: Page) => page.getByRole('navigation', { name: 'Documentation' });
const heading = (page: Page) => page.getByRole('main').getByRole('heading', { level: 1 });

test.describe.configure({ mode: 'serial', timeout: 60_000 });
test.use({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  await stack.startServer();
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({ name: 'Gate Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'partners', 'setup'] }] } }),
    'index.mdx': '---\ntitle: Welcome\n---\n\nWelcome to the docs.\n',
    'partners.mdx': `---\ntitle: Partner Portal\naudience: partners\n---\n\n${SECRET}\n`,
    'setup.mdx': '---\ntitle: Setup\n---\n\nInstall it.\n',
  };
  const { projectId } = await stack.deployFiles(SLUG, 'Gate docs', files);
  const profile = await api('POST', `/projects/${projectId}/audiences`, { name: 'Partners', slug: 'partners', audiences: ['partners'] });
  expect(profile.status).toBe(201);
  const issued = await api('POST', `/projects/${projectId}/audiences/${String(profile.json.id)}/token`, { label: 'e2e' });
  expect(issued.status).toBe(201);
  token = String(issued.json.token);
  expect(String(issued.json.magicLink)).toContain('?_quire_token=');
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
});

test('a visitor without a token sees no gated page in the navigation, and the gate form instead of it', async ({ page }) => {
  await page.goto(`${site}/setup`);
  await expect(docs(page).getByRole('link', { name: 'Setup' })).toBeVisible();
  await expect(docs(page).getByRole('link', { name: 'Welcome' })).toBeVisible();
  await expect(docs(page).getByRole('link', { name: 'Partner Portal' })).toHaveCount(0);
  // previous/next skip it too
  await expect(page.getByRole('navigation', { name: 'Previous and next pages' }).getByRole('link', { name: /Welcome/ })).toBeVisible();
  await expect(page.getByText('Partner Portal')).toHaveCount(0);

  const res = await page.goto(`${site}/partners`);
  expect(res?.status()).toBe(401);
  await expect(heading(page)).toHaveText('This page needs access');
  await expect(page.getByRole('textbox', { name: 'Access token' })).toBeVisible();
  await expect(page.getByText(SECRET)).toHaveCount(0);
  await expect(page.getByText('Partner Portal')).toHaveCount(0);
});

test('the magic link opens the gated page, and its cookie keeps it open', async ({ page, context }) => {
  await page.goto(`${site}/?_quire_token=${token}`);
  await expect(page).toHaveURL(`${site}/`);
  const cookie = (await context.cookies(site)).find((c) => c.name === 'quire_audience');
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Lax');
  expect(cookie?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600);

  await docs(page).getByRole('link', { name: 'Partner Portal' }).click();
  await expect(page).toHaveURL(`${site}/partners`);
  await expect(heading(page)).toHaveText('Partner Portal');
  await expect(page.getByRole('main')).toContainText(SECRET);

  // a new tab of the same browser: still open
  const again = await context.newPage();
  const res = await again.goto(`${site}/partners`);
  expect(res?.status()).toBe(200);
  await expect(heading(again)).toHaveText('Partner Portal');
});

test('a token pasted into the gate form opens the page; a wrong one is refused with a message', async ({ page }) => {
  await page.goto(`${site}/partners`);
  const field = page.getByRole('textbox', { name: 'Access token' });
  await field.fill('not-a-real-token');
  await page.getByRole('button', { name: 'Open page' }).click();
  await expect(page.getByRole('alert')).toContainText('This access token is not valid');
  await expect(page.getByText(SECRET)).toHaveCount(0);

  await page.getByRole('textbox', { name: 'Access token' }).fill(token);
  await page.getByRole('button', { name: 'Open page' }).click();
  await expect(page).toHaveURL(`${site}/partners`);
  await expect(heading(page)).toHaveText('Partner Portal');
  await expect(page.getByRole('main')).toContainText(SECRET);
  await expect(docs(page).getByRole('link', { name: 'Partner Portal' })).toHaveAttribute('aria-current', 'page');
});
