import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import Database from 'better-sqlite3';
import type { Core } from '../src/core/core';
import { createCore, type DesktopCore } from '../src/core/compose';
import { createCoreCaller } from '../src/core/router';
import type { Reviews } from '../src/core/reviews';
import { openStore, STORE_FILE } from '../src/core/store';
import { fileTokenVault } from '../src/core/token-vault';

/** Deleting and renaming files in an opened workspace, offline: local edits a proposal carries as a change set. */
let dataDir: string;
let dc: DesktopCore;
let core: Core;
let c: ReturnType<typeof createCoreCaller>;
const projectId = 'prj_docs';
const sha = 'b'.repeat(40);
const docsJson = JSON.stringify({ name: 'Acme', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] } });
const setup = '---\ntitle: Setting up\n---\n\nInstall the tool.\n';

async function errorOf(p: Promise<unknown>): Promise<TRPCError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TRPCError);
  return err as TRPCError;
}

function reviewsOf(): Reviews {
  core.store.saveSession({
    serverUrl: 'http://quire.test', userId: 'usr_me', email: 'me@acme.test', name: 'Me',
    orgId: 'org_acme', orgName: 'Acme', role: 'editor', expiresAt: '2099-01-01T00:00:00.000Z',
  });
  return dc.reviews;
}

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-file-edits-'));
  dc = createCore({ dataDir, vault: fileTokenVault(dataDir), sync: { auto: false } });
  core = dc.core;
  c = createCoreCaller(dc);
  core.store.saveWorkspace(projectId, 'main', sha, [
    { path: 'docs.json', size: docsJson.length, content: docsJson },
    { path: 'index.mdx', size: 10, content: '---\ntitle: Welcome\n---\n\nHello.\n' },
    { path: 'guides/setup.mdx', size: setup.length, content: setup },
    { path: 'logo.png', size: 7, content: null },
  ]);
});
afterEach(async () => {
  await dc.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('deleting a file', () => {
  it('takes it out of the workspace and lists it as changed; a proposal carries it as a deletion with its old text', async () => {
    expect(await c.files.delete({ projectId, path: 'guides/setup.mdx' })).toEqual({ path: 'guides/setup.mdx', deleted: true });
    expect((await errorOf(c.files.read({ projectId, path: 'guides/setup.mdx' }))).code).toBe('NOT_FOUND');
    expect(await c.workspace.changes({ projectId })).toEqual(['guides/setup.mdx']);
    const paths = (n: { path?: string; children?: unknown[] }): string[] => [...(n.path ? [n.path] : []), ...((n.children ?? []) as typeof n[]).flatMap(paths)];
    expect((await c.workspace.tree({ projectId })).nodes.flatMap(paths)).not.toContain('guides/setup.mdx');

    const reviews = reviewsOf();
    const r = reviews.propose({ projectId, title: 'Drop setup', paths: ['guides/setup.mdx'] });
    expect(r.changes).toEqual([{ path: 'guides/setup.mdx', change: 'deleted' }]);
    expect(reviews.get(projectId, r.id).files).toEqual([{ path: 'guides/setup.mdx', change: 'deleted', before: setup, after: null }]);
    expect(dc.outbox.items()[0]!.mutation).toMatchObject({
      type: 'review.create',
      review: { baseCommit: sha, changes: [{ path: 'guides/setup.mdx', deleted: true }] },
    });
  });

  it('keeps the deletion across a restart and a reopening from the server; writing the path again brings the file back', async () => {
    await c.files.delete({ projectId, path: 'index.mdx' });
    await dc.close();
    dc = createCore({ dataDir, vault: fileTokenVault(dataDir), sync: { auto: false } });
  core = dc.core;
    c = createCoreCaller(dc);
    const onServer = core.store.files(projectId).map((f) => ({ path: f.path, size: f.size, content: f.base }));
    core.store.saveWorkspace(projectId, 'main', sha, [...onServer, { path: 'index.mdx', size: 10, content: 'x' }]);
    expect(await c.workspace.changes({ projectId })).toEqual(['index.mdx']);
    expect(await c.files.write({ projectId, path: 'index.mdx', content: 'x' })).toMatchObject({ content: 'x', modified: false });
    expect(await c.workspace.changes({ projectId })).toEqual([]);
  });

  it('forgets a file created here outright, and says when there is no such file', async () => {
    await c.files.write({ projectId, path: 'draft.mdx', content: 'draft' });
    await c.files.delete({ projectId, path: 'draft.mdx' });
    expect(await c.workspace.changes({ projectId })).toEqual([]);
    const err = await errorOf(c.files.delete({ projectId, path: 'draft.mdx' }));
    expect(err).toMatchObject({ code: 'NOT_FOUND', message: 'There is no file draft.mdx in this project.' });
    expect((await errorOf(c.files.delete({ projectId, path: '../outside.mdx' }))).code).toBe('BAD_REQUEST');
  });
});

describe('a local folder', () => {
  it('removes a deleted file from the folder and writes a renamed one at its new path', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-docs-folder-'));
    try {
      fs.writeFileSync(path.join(folder, 'docs.json'), docsJson);
      fs.writeFileSync(path.join(folder, 'index.mdx'), 'Home\n');
      fs.writeFileSync(path.join(folder, 'old.mdx'), 'Old\n');
      const ws = await c.workspace.openFolder({ path: folder });
      await c.files.delete({ projectId: ws.projectId, path: 'index.mdx' });
      await c.files.rename({ projectId: ws.projectId, from: 'old.mdx', to: 'guides/new.mdx' });
      expect(fs.readdirSync(folder).sort()).toEqual(['docs.json', 'guides']);
      expect(fs.readFileSync(path.join(folder, 'guides/new.mdx'), 'utf8')).toBe('Old\n');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('renaming a file', () => {
  it('writes its text at the new path and deletes the old one: a proposal carries an added and a deleted file', async () => {
    await c.files.write({ projectId, path: 'guides/setup.mdx', content: `${setup}Edited before the move.\n` });
    const moved = await c.files.rename({ projectId, from: 'guides/setup.mdx', to: 'start/install.mdx' });
    expect(moved).toMatchObject({ path: 'start/install.mdx', content: `${setup}Edited before the move.\n`, base: null });
    expect(await c.workspace.changes({ projectId })).toEqual(['guides/setup.mdx', 'start/install.mdx']);
    const r = reviewsOf().propose({ projectId, title: 'Move setup', paths: ['guides/setup.mdx', 'start/install.mdx'] });
    expect(r.changes).toEqual([
      { path: 'guides/setup.mdx', change: 'deleted' },
      { path: 'start/install.mdx', change: 'added' },
    ]);
  });

  it('refuses a target that exists, a missing source and a binary file', async () => {
    expect(await errorOf(c.files.rename({ projectId, from: 'index.mdx', to: 'guides/setup.mdx' }))).toMatchObject({
      code: 'CONFLICT',
      message: 'There is already a file guides/setup.mdx; choose another path.',
    });
    expect((await errorOf(c.files.rename({ projectId, from: 'nope.mdx', to: 'x.mdx' }))).code).toBe('NOT_FOUND');
    expect((await errorOf(c.files.rename({ projectId, from: 'logo.png', to: 'img/logo.png' }))).code).toBe('BAD_REQUEST');
    expect(await c.workspace.changes({ projectId })).toEqual([]);
  });
});

describe('the docs root', () => {
  it('names the folder of docs.json and the config file', async () => {
    expect(await c.workspace.docsRoot({ projectId })).toEqual({ docsRoot: '', configPath: 'docs.json' });
  });
});

describe('an older store', () => {
  it('gains the deletion mark when opened, its files and edits kept', async () => {
    await dc.close();
    const db = new Database(path.join(dataDir, STORE_FILE));
    db.exec('ALTER TABLE files DROP COLUMN deleted');
    db.close();
    const store = openStore(dataDir);
    expect(store.files(projectId).map((f) => f.path)).toEqual(['docs.json', 'guides/setup.mdx', 'index.mdx', 'logo.png']);
    expect(store.deleteFile(projectId, 'index.mdx')).toBe(true);
    expect(store.changedPaths(projectId)).toEqual(['index.mdx']);
    store.close();
    dc = createCore({ dataDir, vault: fileTokenVault(dataDir), sync: { auto: false } });
  core = dc.core;
  });
});
