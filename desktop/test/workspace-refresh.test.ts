import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import type { FixtureRepo } from '../../server/test/helpers/git-repo';
import { TEST_PASSWORD } from '../../server/test/services/identity-fixtures';
import { createCore, type DesktopCore } from '../src/core/compose';
import { createCoreCaller } from '../src/core/router';
import { fileTokenVault } from '../src/core/token-vault';
import { startServerFixture, type ServerFixture } from './server-fixture';

/**
 * Refreshing a workspace from the server: pages changed only there are taken, pages changed on both sides are merged three ways,
 * real conflicts are kept and resolved by the person.
 */
let fx: ServerFixture;
let repo: FixtureRepo;
let projectId: string;
let dataDir: string;
let core: DesktopCore;
let c: ReturnType<typeof createCoreCaller>;

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}`;
const GUIDE = 'Line one.\n\nLine two.\n\nLine three.\n\nLine four.\n';

beforeAll(async () => {
  fx = await startServerFixture({
      'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guide', 'faq'] }] } }),
      'index.mdx': page('Welcome', 'Hello.\n'),
      'guide.mdx': page('Guide', GUIDE),
      'faq.mdx': page('FAQ', 'Questions.\n'),
  });
  ({ repo, projectId, dataDir } = fx);
  const serverUrl = fx.serverUrl;
  core = createCore({ dataDir, vault: fileTokenVault(dataDir) });
  c = createCoreCaller(core);
  await c.session.signIn({ serverUrl, email: 'writer@acme.test', password: TEST_PASSWORD });
  const ws = await c.workspace.open({ projectId });
  expect(ws).toMatchObject({ refresh: null, local: false, commitSha: repo.headSha() });
});

afterAll(async () => {
  await core?.close();
  await fx?.close();
});

describe('workspace refresh', () => {
  it('takes pages changed only on the server and merges a page changed on both sides when the changes do not overlap', async () => {
    await c.files.write({ projectId, path: 'guide.mdx', content: page('Guide', GUIDE.replace('Line one.', 'Line one, edited here.')) });
    const head = repo.commit({ 'guide.mdx': page('Guide', GUIDE.replace('Line four.', 'Line four, edited on the server.')), 'faq.mdx': page('FAQ', 'Answers too.\n') });

    const r = await c.workspace.refresh({ projectId });
    expect(r).toEqual({ commitSha: head, updated: ['faq.mdx'], merged: ['guide.mdx'], conflicts: [] });
    const guide = await c.files.read({ projectId, path: 'guide.mdx' });
    expect(guide.content).toBe(page('Guide', GUIDE.replace('Line one.', 'Line one, edited here.').replace('Line four.', 'Line four, edited on the server.')));
    expect(guide.base).toBe(page('Guide', GUIDE.replace('Line four.', 'Line four, edited on the server.')));
    expect(guide.modified).toBe(true);
    expect(await c.files.read({ projectId, path: 'faq.mdx' })).toMatchObject({ content: page('FAQ', 'Answers too.\n'), modified: false });
    // what a proposal would carry: only the local edit, over the new head
    expect(await c.workspace.changes({ projectId })).toEqual(['guide.mdx']);
    expect((await c.workspace.open({ projectId })).refresh).toEqual({ commitSha: head, updated: [], merged: [], conflicts: [] });
  });

  it('reports a real conflict, keeps the local text, gives the regions, and stores the text the person chose', async () => {
    const base = (await c.files.read({ projectId, path: 'guide.mdx' })).content!;
    const mine = base.replace('Line two.', 'Line two, my way.');
    await c.files.write({ projectId, path: 'guide.mdx', content: mine });
    const theirs = (await c.files.read({ projectId, path: 'guide.mdx' })).base!.replace('Line two.', 'Line two, their way.');
    const head = repo.commit({ 'guide.mdx': theirs });

    const opened = await c.workspace.open({ projectId });
    expect(opened.refresh).toEqual({ commitSha: head, updated: [], merged: [], conflicts: ['guide.mdx'] });
    expect(opened.conflicts).toEqual(['guide.mdx']);
    expect((await c.files.read({ projectId, path: 'guide.mdx' })).content).toBe(mine);

    const conflict = await c.workspace.conflict({ projectId, path: 'guide.mdx' });
    expect(conflict.deletedOnServer).toBe(false);
    const hard = conflict.regions.filter((r) => r.conflict);
    expect(hard).toEqual([{ conflict: true, base: 'Line two.\n', local: 'Line two, my way.\n', remote: 'Line two, their way.\n' }]);
    // the regions put back together with the local side give the local page
    expect(conflict.regions.map((r) => (r.conflict ? r.local : r.text)).join('')).toBe(mine);

    // a second refresh with nothing new on the server still reports it
    expect((await c.workspace.refresh({ projectId })).conflicts).toEqual(['guide.mdx']);

    const chosen = mine.replace('Line two, my way.', 'Line two, both ways.');
    expect(await c.workspace.resolve({ projectId, path: 'guide.mdx', text: chosen })).toEqual({ conflicts: [] });
    const guide = await c.files.read({ projectId, path: 'guide.mdx' });
    expect(guide).toMatchObject({ content: chosen, base: theirs, modified: true });
    expect(await c.workspace.conflicts({ projectId })).toEqual([]);
    const err = await c.workspace.conflict({ projectId, path: 'guide.mdx' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe('NOT_FOUND');
  });

  it('keeps a page edited here that the server deleted, as a conflict, and drops one deleted there and not edited here', async () => {
    await c.files.write({ projectId, path: 'faq.mdx', content: page('FAQ', 'Answers, edited here.\n') });
    const head = repo.commit({ 'faq.mdx': null, 'index.mdx': null, 'new.mdx': page('New', 'Brand new.\n') });
    const r = await c.workspace.refresh({ projectId });
    expect(r).toEqual({ commitSha: head, updated: ['index.mdx', 'new.mdx'], merged: [], conflicts: ['faq.mdx'] });
    expect((await c.files.read({ projectId, path: 'faq.mdx' })).content).toBe(page('FAQ', 'Answers, edited here.\n'));
    expect(await c.workspace.conflict({ projectId, path: 'faq.mdx' })).toMatchObject({ deletedOnServer: true, regions: [{ conflict: true, local: page('FAQ', 'Answers, edited here.\n'), remote: '' }] });
    await expect(c.files.read({ projectId, path: 'index.mdx' })).rejects.toThrow(/no file/);
    expect((await c.files.read({ projectId, path: 'new.mdx' })).content).toBe(page('New', 'Brand new.\n'));
    await c.workspace.resolve({ projectId, path: 'faq.mdx', text: page('FAQ', 'Answers, edited here.\n') });
    expect(await c.workspace.changes({ projectId })).toContain('faq.mdx');
  });

  it('refuses to refresh a project never opened here', async () => {
    const err = await c.workspace.refresh({ projectId: 'prj_unknown' }).catch((e: unknown) => e);
    expect((err as TRPCError).code).toBe('NOT_FOUND');
  });
});
