import { expect, test, type Page } from '@playwright/test';
import { screenshot, useDesktopStack } from '../fixtures/desktop-stack';

/**
 * Pages and navigation from Quire Desktop (`pnpm desktop:web` against a real Quire server), all as
 * local edits of the workspace: a writer creates a page in a group, renames a page (docs.json gains
 * a redirect and the links to it follow), deletes a page, and reorders pages by drag and drop and
 * with Alt+ArrowUp/Down. What docs.json and the pages hold is read back through the core's own API.
 */
const SERVER_PORT = Number(process.env.QUIRE_E2E_PAGES_SERVER_PORT ?? 4392);
const DESKTOP_PORT = Number(process.env.QUIRE_E2E_PAGES_PORT ?? 5392);
const WRITER = { email: 'pages@desktop.test', password: 'a long desktop password', role: 'editor' } as const;

const { stack, url } = useDesktopStack({
  name: 'desktop-pages',
  serverPort: SERVER_PORT,
  desktopPort: DESKTOP_PORT,
  projectName: 'Pages demo',
  projectSlug: 'pages-demo',
  user: WRITER,
});

/** Calls a procedure of the desktop core (web mode: tRPC over HTTP, every call a POST) and answers its data. */
async function coreCall<T>(page: Page, procedure: string, input: unknown): Promise<T> {
  const res = await page.request.post(new URL(`trpc/${procedure}`, url()).href, { data: input });
  const body = (await res.json()) as { result?: { data: T }; error?: { message: string } };
  if (!res.ok() || !body.result) throw new Error(`${procedure}: ${body.error?.message ?? res.status()}`);
  return body.result.data;
}

interface DocsJson {
  navigation: { tabs: Array<{ tab: string; groups: Array<{ group: string; pages: unknown[] }> }> };
  redirects: Array<{ source: string; destination: string }>;
}

test('a writer creates, renames, deletes and reorders pages, and docs.json follows', async ({ page }, testInfo) => {
  await page.goto(url());
  await page.getByLabel('Server URL').fill(stack.serverUrl);
  await page.getByLabel('Email').fill(WRITER.email);
  await page.getByLabel('Password').fill(WRITER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('list', { name: 'Projects' }).getByRole('listitem', { name: 'Pages demo' }).click();

  const tree = page.getByRole('tree', { name: 'Pages' });
  const concepts = tree.getByRole('treeitem', { name: 'Concepts', exact: true });
  await expect(concepts.getByRole('treeitem', { name: 'Sites', exact: true })).toBeVisible();
  const projectId = (await coreCall<{ items: Array<{ id: string; name: string }> }>(page, 'projects.list', {})).items.find((p) => p.name === 'Pages demo')!.id;
  const read = async (path: string) => (await coreCall<{ content: string }>(page, 'files.read', { projectId, path })).content;
  const docsJson = async () => JSON.parse(await read('docs.json')) as DocsJson;
  const conceptPages = async () => (await docsJson()).navigation.tabs[0]!.groups.find((g) => g.group === 'Concepts')!.pages;

  await test.step('create a page in a group', async () => {
    await page.getByRole('button', { name: 'New page' }).click();
    const dialog = page.getByRole('dialog', { name: 'New page' });
    await dialog.getByLabel('Title').fill('Deploy checklist');
    await dialog.getByLabel('Group').selectOption({ label: 'Concepts (Guides)' });
    await expect(dialog.getByLabel('Path')).toHaveAttribute('placeholder', 'concepts/deploy-checklist');
    await screenshot(page, testInfo, 'desktop-new-page');
    await dialog.getByRole('button', { name: 'Create page' }).click();
    await expect(dialog).toBeHidden();
    const created = concepts.getByRole('treeitem', { name: 'Deploy checklist', exact: true });
    await expect(created).toBeVisible();
    await expect(created).toHaveAttribute('aria-selected', 'true');
    await expect(created).toHaveAccessibleDescription('added');
    await expect(concepts.getByRole('treeitem', { name: 'Sites', exact: true })).not.toHaveAccessibleDescription(/added/);
    expect(await conceptPages()).toEqual(['concepts/projects', 'concepts/builds', 'concepts/sites', 'concepts/deploy-checklist']);
    expect(await read('concepts/deploy-checklist.mdx')).toBe('---\ntitle: Deploy checklist\ndescription: ""\n---\n\n');
  });

  await test.step('rename a page with a new path: a redirect is added and links follow', async () => {
    await tree.getByRole('treeitem', { name: 'Quickstart', exact: true }).click({ button: 'right' });
    await page.getByRole('menu', { name: 'Quickstart actions' }).getByRole('menuitem', { name: 'Rename page' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename page' });
    await expect(dialog.getByLabel('Title')).toHaveValue('Quickstart');
    await dialog.getByLabel('Title').fill('Getting started');
    await dialog.getByLabel('Path').fill('start/getting-started');
    await expect(dialog.getByRole('checkbox', { name: 'Update links in other pages' })).toBeChecked();
    await screenshot(page, testInfo, 'desktop-rename-page');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await expect(dialog).toBeHidden();
    await expect(tree.getByRole('treeitem', { name: 'Getting started', exact: true })).toBeVisible();
    await expect(tree.getByRole('treeitem', { name: 'Quickstart', exact: true })).toHaveCount(0);
    const docs = await docsJson();
    expect(docs.navigation.tabs[0]!.groups[0]!.pages).toEqual(['index', 'start/getting-started']);
    expect(docs.redirects).toContainEqual({ source: '/quickstart', destination: '/start/getting-started' });
    expect(docs.redirects).toContainEqual({ source: '/docs/quickstart', destination: '/start/getting-started' });
    expect(await read('start/getting-started.mdx')).toMatch(/^---\ntitle: Getting started\n/);
    expect(await read('index.mdx')).toContain('href="/start/getting-started"');
    const changed = await coreCall<string[]>(page, 'workspace.changes', { projectId });
    expect(changed).toEqual(expect.arrayContaining(['quickstart.mdx', 'start/getting-started.mdx', 'docs.json', 'index.mdx']));
  });

  await test.step('delete a page from its context menu, opened with the keyboard', async () => {
    const created = concepts.getByRole('treeitem', { name: 'Deploy checklist', exact: true });
    await created.focus();
    await page.keyboard.press('Shift+F10');
    await page.getByRole('menu', { name: 'Deploy checklist actions' }).getByRole('menuitem', { name: 'Delete page' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete page' });
    await expect(dialog).toContainText('concepts/deploy-checklist.mdx');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(created).toHaveCount(0);
    expect(await conceptPages()).toEqual(['concepts/projects', 'concepts/builds', 'concepts/sites']);
    expect(await coreCall<string[]>(page, 'workspace.changes', { projectId })).not.toContain('concepts/deploy-checklist.mdx');
  });

  await test.step('reorder pages by drag and drop, and with Alt+ArrowDown', async () => {
    const item = (name: string) => concepts.getByRole('treeitem', { name, exact: true });
    const order = () => concepts.getByRole('treeitem').allTextContents();
    const projects = await item('Projects').boundingBox();
    await item('Sites').dragTo(item('Projects'), { targetPosition: { x: 10, y: Math.max(1, Math.floor(projects!.height / 4)) } });
    await expect.poll(order).toEqual(['Sites', 'Projects', 'Builds']);
    expect(await conceptPages()).toEqual(['concepts/sites', 'concepts/projects', 'concepts/builds']);
    await item('Sites').focus();
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(order).toEqual(['Projects', 'Sites', 'Builds']);
    await expect(item('Sites')).toBeFocused();
    expect(await conceptPages()).toEqual(['concepts/projects', 'concepts/sites', 'concepts/builds']);
    await screenshot(page, testInfo, 'desktop-pages-reordered');
  });

  await test.step('a navigation entry without a file: "Create page" writes it, "Remove entry" takes it out of docs.json', async () => {
    const docs = await docsJson();
    docs.navigation.tabs[0]!.groups.find((g) => g.group === 'Concepts')!.pages.push('concepts/glossary', 'concepts/old-notes');
    await coreCall(page, 'files.write', { projectId, path: 'docs.json', content: `${JSON.stringify(docs, null, 2)}\n` });
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const glossary = concepts.getByRole('treeitem', { name: 'Glossary (missing)', exact: true });
    await glossary.click({ button: 'right' });
    await page.getByRole('menu', { name: 'Glossary actions' }).getByRole('menuitem', { name: 'Create page' }).click();
    await expect(concepts.getByRole('treeitem', { name: 'Glossary', exact: true })).toBeVisible();
    expect(await read('concepts/glossary.mdx')).toBe('---\ntitle: Glossary\ndescription: ""\n---\n\n');

    const oldNotes = concepts.getByRole('treeitem', { name: 'Old notes (missing)', exact: true });
    await oldNotes.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu', { name: 'Old notes actions' }).getByRole('menuitem', { name: 'Remove entry' }).click();
    await expect(oldNotes).toHaveCount(0);
    expect(await conceptPages()).toEqual(['concepts/projects', 'concepts/sites', 'concepts/builds', 'concepts/glossary']);
  });

  await test.step('the command palette offers the page commands for the open page', async () => {
    await page.keyboard.press('Control+Shift+P');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox', { name: 'Command' }).fill('page');
    for (const name of ['New page', 'Rename page', 'Move page', 'Delete page']) {
      await expect(palette.getByRole('option', { name: new RegExp(`^${name}`) })).toBeVisible();
    }
    await page.keyboard.press('Escape');
  });
});
