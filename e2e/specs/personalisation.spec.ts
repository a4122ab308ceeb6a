import { expect, test, type Browser, type Page } from '@playwright/test';
import { DesktopStack } from '../fixtures/desktop-stack';

/**
 * Personalised pages as readers meet them (shared/src/site/personalisation.ts): a real Quire server of
 * its own builds a docs site whose pages greet the reader with Mintlify's `{user.name ?? "there"}`.
 * Two readers holding different audience tokens, in two browsers at once, each see their own name
 * and plan; an anonymous reader sees the fallback; the API playground starts with the reader's key.
 */
const PORT = Number(process.env.QUIRE_E2E_PERSONALISATION_PORT ?? 4431);
const SLUG = 'persona';

const stack = new DesktopStack('personalisation', PORT);
const site = `http://${SLUG}-docs.localhost:${PORT}`;
const tokens: Record<'ada' | 'grace', string> = { ada: '', grace: '' };

const OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'Users', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
  security: [{ key: [] }],
  paths: { '/users': { get: { summary: 'List users', responses: { 200: { description: 'ok' } } } } },
};

const main = (page: Page) => page.getByRole('main');

test.describe.configure({ mode: 'serial', timeout: 60_000 });
test.use({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  await stack.startServer();
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({
      name: 'Persona Docs',
      personalization: { fields: ['company'] },
      api: { openapi: 'openapi.json', playground: { display: 'interactive' } },
      navigation: { groups: [{ group: 'Start', pages: ['index', 'users'] }] },
    }),
    'openapi.json': JSON.stringify(OPENAPI),
    'index.mdx': '---\ntitle: Welcome\n---\n\nHello {user.name ?? "there"}! You are on the {user.plan ?? "free"} plan at {user.company ?? "your company"}.\n',
    'users.mdx': '---\ntitle: Users\nopenapi: GET /users\n---\n\nList the users of your account.\n',
  };
  const { projectId } = await stack.deployFiles(SLUG, 'Persona docs', files);
  const profile = await stack.call('POST', `/projects/${projectId}/audiences`, { name: 'Customers', slug: 'customers', audiences: ['customers'] });
  expect(profile.status).toBe(201);
  const issue = async (claims: Record<string, unknown>) => {
    const issued = await stack.call('POST', `/projects/${projectId}/audiences/${String(profile.json.id)}/token`, { label: 'e2e', claims });
    expect(issued.status, issued.text).toBe(201);
    return String(issued.json.token);
  };
  tokens.ada = await issue({ name: 'Ada Lovelace', plan: 'Enterprise', company: 'Analytical Engines', apiPlaygroundInputs: { header: { 'X-API-Key': 'sk_live_ada' } } });
  tokens.grace = await issue({ name: 'Grace Hopper', plan: 'Team' });
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
});

/** A browser of its own for a reader who opened their magic link. */
async function readerPage(browser: Browser, token: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${site}/?_quire_token=${token}`);
  await expect(page).toHaveURL(`${site}/`);
  return page;
}

test('two readers holding different tokens see their own names at the same time', async ({ browser }) => {
  const [ada, grace] = await Promise.all([readerPage(browser, tokens.ada), readerPage(browser, tokens.grace)]);
  await Promise.all([ada.reload(), grace.reload()]);
  await expect(main(ada)).toContainText('Hello Ada Lovelace! You are on the Enterprise plan at Analytical Engines.');
  await expect(main(grace)).toContainText('Hello Grace Hopper! You are on the Team plan at your company.');
  await expect(ada.getByText('Grace Hopper')).toHaveCount(0);
  await expect(grace.getByText('Ada Lovelace')).toHaveCount(0);
  await ada.context().close();
  await grace.context().close();
});

test('an anonymous reader sees the fallbacks', async ({ page }) => {
  await page.goto(`${site}/`);
  await expect(main(page)).toContainText('Hello there! You are on the free plan at your company.');
  await expect(page.getByText(/Ada Lovelace|Grace Hopper/)).toHaveCount(0);
});

test("the API playground starts with the reader's own API key, and empty for others", async ({ browser, page }) => {
  const ada = await readerPage(browser, tokens.ada);
  await ada.goto(`${site}/users`);
  await ada.getByRole('button', { name: 'Try it' }).click();
  await expect(ada.getByLabel(/X-API-Key/)).toHaveValue('sk_live_ada');
  await ada.context().close();

  await page.goto(`${site}/users`);
  await page.getByRole('button', { name: 'Try it' }).click();
  await expect(page.getByLabel(/X-API-Key/)).toHaveValue('');
});
