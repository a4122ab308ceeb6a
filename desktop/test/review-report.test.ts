import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../server/test/helpers/app';
import { TEST_PASSWORD } from '../../server/test/services/identity-fixtures';
import { createCore, type DesktopCore } from '../src/core/compose';
import { createCoreCaller } from '../src/core/router';
import { fileTokenVault } from '../src/core/token-vault';
import { startServerFixture, type ServerFixture } from './server-fixture';

/**
 * The pre-merge report of a review computed by the desktop core, offline, from its own store, and by
 * the server from the repository: the same shared engine gives the same report for the same change set.
 */
let fx: ServerFixture;
let dc: DesktopCore;
const docsJson = JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] } });
const setup = '---\ntitle: Setup\n---\n\nInstall the tool. Then then run it.\n';

beforeAll(async () => {
  fx = await startServerFixture({
    'docs.json': docsJson,
    'index.mdx': '---\ntitle: Welcome\n---\n\nRead [the setup](/guides/setup).\n',
    'guides/setup.mdx': setup,
    'images/logo.png': 'not really a png',
  });
  const rule = { type: 'existence', name: 'no-simply', tokens: ['simply'], severity: 'warning' };
  const created = await fx.t.app.inject({ method: 'POST', url: `/v1/projects/${fx.projectId}/style-rules`, headers: bearer(fx.t.adminKey), payload: rule });
  expect(created.statusCode).toBe(201);
  dc = createCore({ dataDir: fx.dataDir, vault: fileTokenVault(fx.dataDir), sync: { auto: false } });
  const c = createCoreCaller(dc);
  await c.session.signIn({ serverUrl: fx.serverUrl, email: 'writer@acme.test', password: TEST_PASSWORD });
  await c.workspace.open({ projectId: fx.projectId });
}, 60_000);

afterAll(async () => {
  await dc?.close();
  await fx?.close();
});

describe('the merge report on both engines', () => {
  it('is the same on the desktop (offline, then synced) and on the server', async () => {
    const c = createCoreCaller(dc);
    const projectId = fx.projectId;
    await c.files.write({ projectId, path: 'guides/setup.mdx', content: '---\ntitle: Set up\n---\n\nSimply install the tool. Then run it. See [the API](/api/nowhere) and ![logo](/images/logo.svg).\n' });
    await c.files.write({ projectId, path: 'guides/new.mdx', content: '---\ntitle: New guide\n---\n\nThe the start.\n' });
    await c.files.write({
      projectId,
      path: 'docs.json',
      content: JSON.stringify({
        name: 'Acme Docs',
        navigation: { groups: [{ group: 'Start', pages: ['index'] }, { group: 'Guides', pages: ['guides/setup', 'guides/new'] }] },
        redirects: [{ source: '/setup', destination: '/guides/setup' }],
      }),
    });
    await c.files.delete({ projectId, path: 'index.mdx' });
    const proposed = await c.reviews.propose({ projectId, title: 'Guides', paths: ['docs.json', 'guides/new.mdx', 'guides/setup.mdx', 'index.mdx'] });

    // offline: the review is only on this computer, and its report is already there
    const offline = await c.reviews.report({ projectId, reviewId: proposed.id });
    expect(offline.previewUrl).toBeNull();
    expect(offline.pages.map((p) => [p.page, p.change, p.title])).toEqual([
      ['guides/new', 'added', 'New guide'],
      ['guides/setup', 'modified', 'Set up'],
      ['index', 'deleted', 'Welcome'],
    ]);
    expect(offline.brokenLinks.map((f) => f.message)).toEqual([expect.stringContaining('/api/nowhere')]);
    expect(offline.missingImages).toHaveLength(1);
    // docs.json still lists the deleted index page
    expect(offline.lint.added.map((f) => f.ruleId).sort()).toEqual(['navigation/missing-page', 'prose/repeated-words', 'style/no-simply']);
    expect(offline.lint.fixed.map((f) => f.ruleId)).toEqual(['prose/repeated-words']);
    expect(offline.navigation.map((n) => [n.page, n.change])).toEqual([['guides/new', 'added'], ['guides/setup', 'moved']]);
    expect(offline.redirects.added).toHaveLength(1);

    await c.sync.now();
    const reviewId = (await c.reviews.list({ projectId })).items.find((r) => r.title === 'Guides')!.id;
    const res = await fx.t.app.inject({ url: `/v1/projects/${projectId}/reviews/${reviewId}/report`, headers: bearer(fx.t.adminKey) });
    expect(res.statusCode).toBe(200);
    const server = res.json().data;
    const { reviewId: _a, previewUrl: _b, ...offlineReport } = offline;
    const { reviewId: _c, previewUrl: _d, ...serverReport } = server;
    expect(offlineReport).toEqual(serverReport);

    // once synced, the desktop report names the server's review and its preview URL too
    expect(await c.reviews.report({ projectId, reviewId })).toEqual(server);
  });
});
