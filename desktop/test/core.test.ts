import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import type { TestApp } from '../../server/test/helpers/app';
import type { FixtureRepo } from '../../server/test/helpers/git-repo';
import { TEST_PASSWORD } from '../../server/test/services/identity-fixtures';
import { callerFor } from '../../server/test/trpc/trpc-fixtures';
import { createCore, type DesktopCore } from '../src/core/compose';
import { createCoreCaller } from '../src/core/router';
import { fileTokenVault, TOKEN_FILE } from '../src/core/token-vault';
import { startServerFixture, type ServerFixture } from './server-fixture';

/** The core against a real Quire server listening on a free port: sign in, projects, workspace, edits, lint, preview, offline. */
let fx: ServerFixture;
let t: TestApp;
let repo: FixtureRepo;
let serverUrl: string;
let projectId: string;
let dataDir: string;
let core: DesktopCore;

const openCore = () => {
  core = createCore({ dataDir, vault: fileTokenVault(dataDir) });
  return createCoreCaller(core);
};

async function errorOf(p: Promise<unknown>): Promise<TRPCError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TRPCError);
  return err as TRPCError;
}

beforeAll(async () => {
  fx = await startServerFixture({
      'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] } }),
      'index.mdx': '---\ntitle: Welcome home\n---\n\nFirst version of the welcome page.\n',
      'guides/setup.mdx': '---\ntitle: Setting up\n---\n\nInstall the tool.\n',
      'snippets/note.mdx': 'A reusable note.\n',
      'images/dot.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]),
  });
  ({ t, repo, serverUrl, projectId, dataDir } = fx);
  const token = (await (await callerFor(t.ctx)).auth.signIn({ email: 'writer@acme.test', password: TEST_PASSWORD })).token;
  await (await callerFor(t.ctx, token)).lint.rules.create({ projectId, rule: { name: 'plain-words', type: 'substitution', swap: { utilize: 'use' } } });
});

afterAll(async () => {
  await core?.close();
  await fx?.close();
});

describe('desktop core', () => {
  it('refuses a wrong password with the server\'s answer and keeps nobody signed in', async () => {
    const c = openCore();
    const err = await errorOf(c.session.signIn({ serverUrl, email: 'writer@acme.test', password: 'wrong password' }));
    expect(err.code).toBe('UNAUTHORIZED');
    expect(await c.session.status()).toMatchObject({ signedIn: false });
    expect(fs.existsSync(path.join(dataDir, TOKEN_FILE))).toBe(false);
  });

  it('signs in through the server and keeps the token in a file only its owner can read', async () => {
    const c = createCoreCaller(core);
    const status = await c.session.signIn({ serverUrl: `${serverUrl}/`, email: 'writer@acme.test', password: TEST_PASSWORD });
    expect(status).toMatchObject({ signedIn: true, serverUrl, user: { email: 'writer@acme.test' } });
    const stat = fs.statSync(path.join(dataDir, TOKEN_FILE));
    expect(stat.mode & 0o777).toBe(0o600);
    expect(await c.sync.status()).toMatchObject({ state: 'synced' });
  });

  it('lists the user\'s projects from the server', async () => {
    const list = await createCoreCaller(core).projects.list();
    expect(list.offline).toBe(false);
    expect(list.items.map((p) => p.name)).toEqual(['Acme']);
  });

  it('opens a project through the server: its files are stored and its tree follows docs.json with pages by title', async () => {
    const c = createCoreCaller(core);
    const ws = await c.workspace.open({ projectId });
    expect(ws).toMatchObject({ ref: 'main', commitSha: repo.headSha(), fileCount: 5, offline: false });
    const { nodes, error } = await c.workspace.tree({ projectId });
    expect(error).toBeNull();
    expect(nodes[0]).toEqual({
      label: 'Start',
      kind: 'group',
      children: [
        { label: 'Welcome home', kind: 'page', path: 'index.mdx' },
        { label: 'Setting up', kind: 'page', path: 'guides/setup.mdx' },
      ],
    });
    expect(nodes[1]!.label).toBe('Other files');
    expect(nodes[1]!.children!.map((n) => n.path)).toEqual(['docs.json', 'images/dot.png', 'snippets/note.mdx']);
    expect((await c.files.read({ projectId, path: 'images/dot.png' })).content).toBeNull();
  });

  it('saves an edit at once: it is read back after the store is closed and opened again', async () => {
    const c = createCoreCaller(core);
    const saved = await c.files.write({ projectId, path: 'index.mdx', content: '---\ntitle: Welcome home\n---\n\nEdited offline.\n' });
    expect(saved.modified).toBe(true);
    await core.close();
    const again = openCore();
    expect(await again.files.read({ projectId, path: 'index.mdx' })).toMatchObject({ content: '---\ntitle: Welcome home\n---\n\nEdited offline.\n', modified: true, base: expect.stringContaining('First version') });
    expect(await again.session.status()).toMatchObject({ signedIn: true });
    // What a proposal would carry: pages whose text differs from the base, not merely saved ones.
    expect(await again.workspace.changes({ projectId })).toEqual(['index.mdx']);
    const base = (await again.files.read({ projectId, path: 'index.mdx' })).base!;
    await again.files.write({ projectId, path: 'index.mdx', content: base });
    expect(await again.workspace.changes({ projectId })).toEqual([]);
    await again.files.write({ projectId, path: 'index.mdx', content: '---\ntitle: Welcome home\n---\n\nEdited offline.\n' });
  });

  it('lints with the project\'s own rules and applies a finding\'s fix to the stored page', async () => {
    const c = createCoreCaller(core);
    const text = '---\ntitle: Setting up\n---\n\nUtilize the tool.\n';
    await c.files.write({ projectId, path: 'guides/setup.mdx', content: text });
    const findings = await c.lint.run({ projectId, path: 'guides/setup.mdx', text });
    const finding = findings.find((f) => f.ruleId === 'style/plain-words');
    expect(finding).toMatchObject({ line: 5, column: 1, fix: { text: 'Use' } });
    const fixed = await c.lint.applyFix({ projectId, path: 'guides/setup.mdx', fix: finding!.fix! });
    expect(fixed.content).toBe('---\ntitle: Setting up\n---\n\nUse the tool.\n');
    expect((await c.files.read({ projectId, path: 'guides/setup.mdx' })).content).toBe(fixed.content);
    expect(await c.lint.run({ projectId, path: 'guides/setup.mdx', text: fixed.content! })).not.toContainEqual(expect.objectContaining({ ruleId: 'style/plain-words' }));
  });

  it('renders the preview with the docs engine and the site theme, and says why a page does not parse', async () => {
    const c = createCoreCaller(core);
    const ok = await c.preview.render({ projectId, path: 'index.mdx', text: '---\ntitle: Welcome home\n---\n\nA brand new **paragraph**.\n', theme: 'dark' });
    expect(ok).toEqual(expect.objectContaining({ ok: true }));
    if (!ok.ok) return;
    expect(ok.title).toBe('Welcome home');
    expect(ok.html).toContain('A brand new <strong>paragraph</strong>.');
    expect(ok.html).toContain('Setting up'); // the sidebar of the site theme, titles from the pages
    expect(ok.html).toMatch(/<html[^>]* data-theme="dark"/);
    // the site's own scripts only, served by the core from the preview's path: no inline script, no other origin
    const scripts = [...ok.html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(/ src="\/_quire-preview\/_assets\/[\w.-]+"/);
    const bad = await c.preview.render({ projectId, path: 'index.mdx', text: '# Title\n\n<Card title="x">\n', theme: 'light' });
    expect(bad).toMatchObject({ ok: false, message: expect.any(String) });
  });

  it('works offline: the cached projects and the stored workspace open, and the sync status says Offline', async () => {
    await t.app.close();
    const c = createCoreCaller(core);
    expect(await c.sync.status()).toMatchObject({ state: 'offline' });
    expect(await c.projects.list()).toEqual({ items: [expect.objectContaining({ name: 'Acme' })], offline: true });
    expect(await c.workspace.open({ projectId })).toMatchObject({ offline: true, commitSha: repo.headSha() });
    expect((await c.files.read({ projectId, path: 'index.mdx' })).content).toContain('Edited offline.');
    expect(await errorOf(c.workspace.refresh({ projectId }))).toMatchObject({
      code: 'BAD_GATEWAY',
      message: 'The Quire server cannot be reached; the workspace was not refreshed.',
    });
    await c.session.signOut();
    expect(fs.existsSync(path.join(dataDir, TOKEN_FILE))).toBe(false);
    expect(await c.session.status()).toMatchObject({ signedIn: false });
  });
});
