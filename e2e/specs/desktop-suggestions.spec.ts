import { expect, test, type Page } from '@playwright/test';
import { DesktopStack } from '../fixtures/desktop-stack';

/**
 * Suggested changes in Quire Desktop, against a real Quire server and two `pnpm desktop:web`
 * instances (a writer and a reviewer, each with its own data directory): the writer proposes an
 * edit of the Quickstart page; the reviewer, with the server STOPPED, chooses line 8 of the source
 * diff and suggests new wording ("Suggest change", "Suggestion", "Add suggestion"); the server starts
 * again and the outbox syncs; the writer sees the suggestion as a diff in its thread and applies it
 * ("Apply suggestion"): the change set gets a new revision holding that wording, the thread is
 * resolved, and comparing the new revision with the previous one ("Compare with") shows only that
 * change, while comparing with the branch shows the writer's own edit too. Then a comment mentions the reviewer on a review
 * nobody asked her to review: it shows in her "Requested from me", and the badge of her "Reviews" control (its accessible
 * description) counts it until she opens it.
 */
const SERVER_PORT = Number(process.env.QUIRE_E2E_SUGGEST_SERVER_PORT ?? 4397);
const WRITER_PORT = Number(process.env.QUIRE_E2E_SUGGEST_WRITER_PORT ?? 5397);
const REVIEWER_PORT = Number(process.env.QUIRE_E2E_SUGGEST_REVIEWER_PORT ?? 5398);
const WRITER = { email: 'writer@suggest.test', name: 'Wendy Writer', password: 'a long writer password', role: 'editor' } as const;
const REVIEWER = { email: 'reviewer@suggest.test', name: 'Rita Reviewer', password: 'a long reviewer password', role: 'reviewer' } as const;
const TITLE = 'Mention the offline review';
const TYPED = 'Reviews work offline too.';
const PAGE = 'quickstart.mdx';
const LINE = 8;
const SUGGESTED = 'You need Node.js 22 or newer and git. Quire runs on its embedded defaults: a SQLite database and local';

const stack = new DesktopStack('desktop-suggestions', SERVER_PORT);
const urls = { writer: '', reviewer: '' };
let projectId = '';
/** The reviewer's page, kept open from the first test for the second. */
let reviewerPage: Page | null = null;

/** Signs in to the server in a desktop app and opens the demo project. */
async function signInAndOpen(page: Page, url: string, who: { email: string; password: string }): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Server URL').fill(stack.serverUrl);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('status', { name: 'Sync status' })).toHaveText(/Synced/, { timeout: 60_000 });
  await page.getByRole('list', { name: 'Projects' }).getByRole('listitem', { name: 'Quire demo' }).click();
  await expect(page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: 'Quickstart', exact: true })).toBeVisible({ timeout: 60_000 });
}

/** Pushes the outbox and pulls now ("Outbox", "Sync now"), and waits for "Synced". */
async function syncNow(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Outbox' }).click();
  await page.getByRole('dialog', { name: 'Outbox' }).getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByRole('status', { name: 'Sync status' })).toHaveText('Synced', { timeout: 90_000 });
  await page.getByRole('button', { name: 'Outbox' }).click();
}

test.describe.configure({ mode: 'serial', timeout: 300_000 });
test.use({ colorScheme: 'light', viewport: { width: 1440, height: 900 } });

test.beforeAll(async () => {
  test.setTimeout(420_000);
  await stack.startServer();
  projectId = await stack.createDemoProject('Quire demo', 'desktop-suggest-demo');
  stack.addUser(WRITER);
  stack.addUser(REVIEWER);
  urls.writer = await stack.startDesktop(WRITER_PORT);
  urls.reviewer = await stack.startDesktop(REVIEWER_PORT);
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await stack.close();
});

test('a reviewer suggests a change offline; the author applies it, the thread resolves, and the new revision shows only that change', async ({ browser }) => {
  const writer = await browser.newPage();
  const reviewer = await browser.newPage();
  reviewerPage = reviewer;

  // the writer proposes an edit of the Quickstart page
  await signInAndOpen(writer, urls.writer, WRITER);
  await writer.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: 'Quickstart', exact: true }).click();
  const editor = writer.getByRole('textbox', { name: /^Editor/ });
  await editor.focus();
  await writer.keyboard.press('Control+End');
  await writer.keyboard.type(`\n\n${TYPED}\n`);
  await writer.getByRole('button', { name: 'Propose changes' }).click();
  const dialog = writer.getByRole('dialog', { name: 'Propose changes' });
  await dialog.getByLabel('Title').fill(TITLE);
  await dialog.getByRole('checkbox', { name: new RegExp(REVIEWER.name) }).check();
  await dialog.getByRole('button', { name: 'Open review' }).click();
  await expect(writer.getByRole('status', { name: 'Sync status' })).toHaveText('Synced', { timeout: 60_000 });
  await expect(writer.getByRole('list', { name: 'Reviews' }).getByRole('listitem', { name: TITLE }).getByText('pending')).toHaveCount(0, { timeout: 30_000 });

  // the reviewer opens it online (kept locally), then suggests new wording of line 8 with the server stopped
  await signInAndOpen(reviewer, urls.reviewer, REVIEWER);
  await reviewer.getByRole('toolbar', { name: 'Activity' }).getByRole('button', { name: 'Reviews' }).click();
  const item = reviewer.getByRole('list', { name: 'Reviews' }).getByRole('listitem', { name: TITLE });
  await expect(item).toBeVisible({ timeout: 60_000 });
  await item.click();
  await reviewer.getByRole('button', { name: 'Source diff' }).click();
  // the unchanged lines above the writer's edit are folded: shown to comment on one of them
  await reviewer.getByRole('button', { name: /^Show \d+ unchanged lines$/ }).click();
  const lineNumber = reviewer.locator('.source-diff .editor.modified .line-numbers').filter({ hasText: new RegExp(`^\\s*${LINE}\\s*$`) });
  await expect(lineNumber).toBeVisible();
  await stack.stopServer();
  await lineNumber.click();
  await expect(reviewer.getByText(`New thread on line ${LINE} of ${PAGE}`)).toBeVisible();
  await reviewer.getByRole('button', { name: 'Suggest change' }).click();
  const box = reviewer.getByRole('textbox', { name: 'Suggestion' });
  await expect(box).toHaveValue(/^You need Node\.js 20 or newer/);
  await box.fill(SUGGESTED);
  await reviewer.getByRole('button', { name: 'Add suggestion' }).click();
  const reviewerThread = reviewer.getByRole('article', { name: `Thread on line ${LINE}` });
  await expect(reviewerThread.getByText('pending')).toBeVisible();
  await expect(reviewerThread.getByRole('figure', { name: `Suggested change of line ${LINE}` })).toContainText(`+ ${SUGGESTED}`);
  // only the author applies suggestions
  await expect(reviewerThread.getByRole('button', { name: 'Apply suggestion' })).toHaveCount(0);
  await expect(reviewer.getByRole('status', { name: 'Sync status' })).toHaveText(/Offline/, { timeout: 30_000 });

  // back online: the suggestion reaches the server once
  await stack.startServer();
  await syncNow(reviewer);
  await expect(reviewerThread.getByText('pending')).toHaveCount(0, { timeout: 30_000 });
  const reviews = await stack.api<{ data: Array<{ id: string; title: string }> }>(`/projects/${projectId}/reviews`);
  const reviewId = reviews.data.find((r) => r.title === TITLE)!.id;
  type Comment = { id: string; path: string; lineStart: number; resolved: boolean; suggestion: { text: string; applied: boolean } | null };
  const comments = async () => (await stack.api<{ data: Comment[] }>(`/projects/${projectId}/reviews/${reviewId}/comments`)).data;
  expect(await comments()).toMatchObject([{ path: PAGE, lineStart: LINE, resolved: false, suggestion: { text: SUGGESTED, applied: false } }]);

  // the writer sees it as a diff in its thread and applies it
  await syncNow(writer);
  const thread = writer.getByRole('article', { name: `Thread on line ${LINE}` });
  await expect(thread).toBeVisible({ timeout: 30_000 });
  await expect(writer.getByText('1 unresolved')).toBeVisible();
  const suggestion = thread.getByRole('figure', { name: `Suggested change of line ${LINE}` });
  await expect(suggestion).toContainText('- You need Node.js 20 or newer');
  await expect(suggestion).toContainText(`+ ${SUGGESTED}`);
  await thread.getByRole('button', { name: 'Apply suggestion' }).click();
  await expect(thread.getByText(/^Resolved/)).toBeVisible();
  await syncNow(writer);
  await expect.poll(async () => (await comments())[0], { timeout: 30_000 }).toMatchObject({ resolved: true, suggestion: { applied: true } });
  const review = (await stack.api<{ data: { revision: number; unresolvedCount: number } }>(`/projects/${projectId}/reviews/${reviewId}`)).data;
  expect(review).toMatchObject({ revision: 2, unresolvedCount: 0 });
  await expect(writer.getByText('Revision 2', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(writer.getByText('0 unresolved')).toBeVisible();

  // compared with the previous revision, only the suggestion changed; compared with the branch, the writer's edit too
  const compare = writer.getByRole('combobox', { name: 'Compare with' });
  await expect(compare).toHaveValue('1', { timeout: 30_000 });
  await writer.getByRole('button', { name: 'Rendered diff' }).click();
  await expect(writer.getByText('0 added, 1 changed, 0 removed blocks.')).toBeVisible({ timeout: 30_000 });
  await writer.getByRole('button', { name: 'Source diff' }).click();
  // the source diff marks one changed span on each side: "20" became "22" on line 8
  await expect(writer.locator('.source-diff .editor.modified .char-insert')).toHaveCount(1, { timeout: 30_000 });
  await expect(writer.locator('.source-diff .editor.original .char-delete')).toHaveCount(1);
  await expect(writer.locator('.source-diff .editor.modified .view-line', { hasText: SUGGESTED.slice(0, 40) })).toBeVisible();
  await compare.selectOption('0');
  await writer.getByRole('button', { name: 'Rendered diff' }).click();
  await expect(writer.getByText('1 added, 1 changed, 0 removed blocks.')).toBeVisible({ timeout: 30_000 });
});

test('a member mentioned in a comment finds the review in "Requested from me"; the Reviews badge counts it until it is opened', async () => {
  const reviewer = reviewerPage!;
  const title = 'Release notes for the offline review';
  // a review nobody asked the reviewer to review, where a comment mentions her by display name
  const created = await stack.call('POST', `/projects/${projectId}/reviews`, { title, changes: [{ path: 'notes.mdx', content: '---\ntitle: Notes\n---\n\nRelease notes.\n' }] });
  expect(created.status, created.text).toBe(201);
  const reviewId = (created.json.data as { id: string }).id;
  const comment = await stack.call('POST', `/projects/${projectId}/reviews/${reviewId}/comments`, { body: `@${REVIEWER.name} could you check the wording?` });
  expect(comment.status, comment.text).toBe(201);
  const mentions = (comment.json.data as unknown as { mentions: Array<{ id: string; email: string }> }).mentions;
  expect(mentions.map((m) => m.email)).toEqual([REVIEWER.email]);
  const requested = await stack.api<{ data: Array<{ title: string }> }>(`/projects/${projectId}/reviews?requestedFrom=${mentions[0]!.id}`);
  expect(requested.data.map((r) => r.title).sort()).toEqual([title, TITLE].sort());

  await syncNow(reviewer);
  const reviewsButton = reviewer.getByRole('toolbar', { name: 'Activity' }).getByRole('button', { name: 'Reviews', exact: true });
  await expect(reviewsButton).toHaveAccessibleDescription('1 review has news for you', { timeout: 30_000 });
  await reviewsButton.click();
  await reviewer.getByRole('group', { name: 'Show reviews' }).getByRole('button', { name: 'Requested from me' }).click();
  const list = reviewer.getByRole('list', { name: 'Reviews' });
  await expect(list.getByRole('listitem', { name: TITLE })).toBeVisible();
  const item = list.getByRole('listitem', { name: title });
  await expect(item).toContainText('New: Waiting on your review, Mentioned you, 1 new reply');
  // opening it clears its news, and the badge with it
  await item.click();
  await expect(reviewer.getByText('could you check the wording?')).toBeVisible({ timeout: 30_000 });
  await expect(reviewsButton).not.toHaveAttribute('aria-describedby', { timeout: 30_000 });
  await expect(item).not.toContainText('New:');
});
