import { expect, test, type Page } from '@playwright/test';
import { screenshot, useDesktopStack } from '../fixtures/desktop-stack';

/**
 * Writing comfort in Quire Desktop (`pnpm desktop:web` against a real Quire server): MDX tags close
 * themselves, the "/" menu inserts components, edited pages are marked in the tree and listed in the
 * Changes view with their diff, and Ctrl+Shift+F searches the project's files and opens a match at
 * its line. Everything is found by role and name; what a page holds is read back through the core's API.
 * Screenshots: e2e/artifacts/screenshots/desktop-comfort-*.png.
 */
const SERVER_PORT = Number(process.env.QUIRE_E2E_COMFORT_SERVER_PORT ?? 4421);
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_COMFORT_PORT ?? 5421);
const WRITER = { email: 'comfort@desktop.test', password: 'a long desktop password', role: 'editor' } as const;

const { stack, url } = useDesktopStack({ name: 'desktop-comfort', serverPort: SERVER_PORT, desktopPort: DESKTOP_PORT, projectName: 'Comfort demo', projectSlug: 'comfort-demo', user: WRITER });

/** Calls a procedure of the desktop core (web mode: tRPC over HTTP, every call a POST) and answers its data. */
async function coreQuery<T>(page: Page, procedure: string, input: unknown): Promise<T> {
  const res = await page.request.post(new URL(`trpc/${procedure}`, url()).href, { data: input });
  const body = (await res.json()) as { result?: { data: T }; error?: { message: string } };
  if (!res.ok() || !body.result) throw new Error(`${procedure}: ${body.error?.message ?? res.status()}`);
  return body.result.data;
}

async function signInAndOpen(page: Page, title: string): Promise<string> {
  await page.goto(url());
  const serverUrl = page.getByLabel('Server URL');
  await expect(serverUrl.or(page.getByRole('list', { name: 'Projects' }))).toBeVisible();
  if (await serverUrl.isVisible()) {
    await serverUrl.fill(stack.serverUrl);
    await page.getByLabel('Email').fill(WRITER.email);
    await page.getByLabel('Password').fill(WRITER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('list', { name: 'Projects' }).getByRole('listitem', { name: 'Comfort demo' }).click();
  await page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: title, exact: true }).click();
  await expect(page.getByTitle('Preview', { exact: true }).contentFrame().getByRole('heading', { name: title, level: 1 })).toBeVisible();
  const projects = await coreQuery<{ items: { id: string; name: string }[] }>(page, 'projects.list', {});
  return projects.items.find((p) => p.name === 'Comfort demo')!.id;
}

test('a tag closes itself, the "/" menu inserts Steps, the edit is marked and listed in Changes, and Ctrl+Shift+F opens a match', async ({ page }, testInfo) => {
  const projectId = await signInAndOpen(page, 'Quickstart');
  const editor = page.getByRole('textbox', { name: 'Editor: quickstart.mdx' });
  const saved = () => coreQuery<{ content: string }>(page, 'files.read', { projectId, path: 'quickstart.mdx' }).then((f) => f.content);
  const preview = page.getByTitle('Preview', { exact: true }).contentFrame();

  // <Note> closes itself; the caret stays between the tags
  await editor.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n\n<Note>');
  await page.keyboard.type('Remember the admin key.');
  await expect.poll(saved).toContain('<Note>Remember the admin key.</Note>');
  await expect(preview.getByText('Remember the admin key.')).toBeVisible();

  // the "/" menu: Steps with two Step
  await page.keyboard.press('End');
  await page.keyboard.type('\n\n/Ste');
  const steps = page.getByRole('option', { name: /Steps/ });
  await expect(steps).toBeVisible();
  await shot(page, 'desktop-comfort-slash-menu', testInfo);
  await page.keyboard.press('Enter');
  await expect.poll(saved).toMatch(/<Steps>\n {2}<Step title="First step">[\s\S]*<Step title="Second step">[\s\S]*<\/Steps>/);
  await expect(preview.getByText('Second step')).toBeVisible();

  // the edited page is marked in the tree and listed in Changes, with its diff
  const tree = page.getByRole('tree', { name: 'Pages' });
  await expect(tree.getByRole('treeitem', { name: 'Quickstart', exact: true })).toHaveAccessibleDescription('edited');
  await expect(tree.getByRole('treeitem', { name: 'Concepts' }).getByRole('treeitem', { name: 'Builds', exact: true })).not.toHaveAccessibleDescription('edited');
  await page.getByRole('toolbar', { name: 'Activity' }).getByRole('button', { name: 'Changes' }).click();
  const changes = page.getByRole('region', { name: 'Changes' });
  await changes.getByRole('button', { name: 'quickstart.mdx, Modified' }).click();
  const diff = page.getByRole('region', { name: 'Diff of quickstart.mdx' });
  await expect(diff).toContainText('Remember the admin key.');
  await shot(page, 'desktop-comfort-changes', testInfo);

  // Ctrl+Shift+F: search in files, open the match in another page at its line
  await page.keyboard.press('Control+Shift+F');
  const search = page.getByRole('region', { name: 'Search' });
  const box = search.getByRole('textbox', { name: 'Search in files' });
  await expect(box).toBeFocused();
  await box.fill('previous deployment keeps');
  await expect(search).toContainText('1 match in 1 file.');
  await shot(page, 'desktop-comfort-search', testInfo);
  await search.getByRole('button', { name: /^concepts\/builds\.mdx, line 19:/ }).click();
  await expect(page.getByRole('textbox', { name: 'Editor: concepts/builds.mdx' })).toBeFocused();
  const status = page.getByRole('contentinfo', { name: 'Status bar' }).or(page.locator('footer[aria-label="Status bar"]'));
  await expect(status).toContainText('Ln 19,');
});

const shot = (page: Page, name: string, testInfo: Parameters<typeof screenshot>[1]) => screenshot(page, testInfo, name);
