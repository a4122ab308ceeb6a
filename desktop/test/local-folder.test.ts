import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { createCore, type DesktopCore } from '../src/core/compose';
import { createCoreCaller } from '../src/core/router';
import { fileTokenVault } from '../src/core/token-vault';

/** Opening a folder on this computer, no server and nobody signed in: tree, lint with the built-in rules, preview, and edits written to disk. */
let dataDir: string;
let folder: string;
let core: DesktopCore;
let c: ReturnType<typeof createCoreCaller>;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-desktop-folder-'));
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-docs-folder-'));
  const write = (rel: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
    fs.writeFileSync(path.join(folder, rel), content);
  };
  write('docs.json', JSON.stringify({ name: 'Folder Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] } }));
  write('index.mdx', '---\ntitle: Home page\n---\n\nWelcome to the docs.\n');
  write('guides/setup.mdx', '---\ntitle: Setup\n---\n\nInstall it.\n');
  write('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
  write('.git/HEAD', 'ref: refs/heads/docs-work\n');
  write('.git/config', '[core]\n');
  write('node_modules/pkg/readme.md', 'not docs\n');
  fs.symlinkSync('/etc/hostname', path.join(folder, 'linked.md'));
  core = createCore({ dataDir, vault: fileTokenVault(dataDir) });
  c = createCoreCaller(core);
});

afterAll(async () => {
  await core?.close();
  for (const d of [dataDir, folder]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

describe('local folders', () => {
  let projectId: string;

  it('opens a folder without a server: its docs files, not .git, node_modules or links; the tree follows docs.json', async () => {
    expect(await c.session.status()).toMatchObject({ signedIn: false });
    const ws = await c.workspace.openFolder({ path: folder });
    projectId = ws.projectId;
    expect(projectId).toMatch(/^local:[0-9a-f]{16}$/);
    expect(ws).toMatchObject({ ref: 'docs-work', fileCount: 4, offline: false, name: path.basename(folder) });
    const { nodes, error } = await c.workspace.tree({ projectId });
    expect(error).toBeNull();
    expect(nodes[0]).toMatchObject({ label: 'Start', children: [{ label: 'Home page', path: 'index.mdx' }, { label: 'Setup', path: 'guides/setup.mdx' }] });
    expect(nodes[1]!.children!.map((n) => n.path)).toEqual(['docs.json', 'logo.png']);
    expect((await c.files.read({ projectId, path: 'logo.png' })).content).toBeNull();
    expect(await c.workspace.localFolders()).toEqual([{ id: projectId, name: path.basename(folder), slug: path.basename(folder), branch: 'docs-work', path: fs.realpathSync(folder) }]);
  });

  it('saves an edit to the store and to the file on disk, leaving no temporary file', async () => {
    const text = '---\ntitle: Home page\n---\n\nWelcome to the edited docs.\n';
    expect(await c.files.write({ projectId, path: 'index.mdx', content: text })).toMatchObject({ content: text, modified: true });
    expect(fs.readFileSync(path.join(folder, 'index.mdx'), 'utf8')).toBe(text);
    await c.files.write({ projectId, path: 'guides/new.mdx', content: 'A new page.\n' });
    expect(fs.readFileSync(path.join(folder, 'guides/new.mdx'), 'utf8')).toBe('A new page.\n');
    expect(fs.readdirSync(folder).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('lints with the built-in rules and previews the page', async () => {
    const findings = await c.lint.run({ projectId, path: 'index.mdx', text: '---\ntitle: Home page\n---\n\n## Start\n\n#### Too deep\n\nWords.\n' });
    expect(findings.map((f) => f.ruleId)).toContain('markdown/heading-increment');
    const preview = await c.preview.render({ projectId, path: 'index.mdx', text: '---\ntitle: Home page\n---\n\nPreviewed words.\n', theme: 'light' });
    expect(preview).toMatchObject({ ok: true });
    expect((preview as { html: string }).html).toContain('Previewed words.');
  });

  it('opens the folder again as it is on disk, after a restart, by its id', async () => {
    fs.writeFileSync(path.join(folder, 'guides/setup.mdx'), '---\ntitle: Setup\n---\n\nChanged in another editor.\n');
    await core.close();
    core = createCore({ dataDir, vault: fileTokenVault(dataDir) });
    c = createCoreCaller(core);
    const ws = await c.workspace.open({ projectId });
    expect(ws).toMatchObject({ projectId, local: true, refresh: null });
    expect((await c.files.read({ projectId, path: 'guides/setup.mdx' })).content).toContain('Changed in another editor.');
    expect((await c.files.read({ projectId, path: 'index.mdx' })).content).toContain('Welcome to the edited docs.');
    await c.files.write({ projectId, path: 'guides/setup.mdx', content: 'After the restart.\n' });
    expect(fs.readFileSync(path.join(folder, 'guides/setup.mdx'), 'utf8')).toBe('After the restart.\n');
  });

  it('does not refresh a local folder from a server', async () => {
    const err = await c.workspace.refresh({ projectId }).catch((e: unknown) => e);
    expect((err as TRPCError).code).toBe('BAD_REQUEST');
  });

  it('refuses a relative path or a path that is not a folder, naming it', async () => {
    for (const p of ['docs', path.join(folder, 'index.mdx'), path.join(folder, 'missing')]) {
      const err = await c.workspace.openFolder({ path: p }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TRPCError);
      expect((err as TRPCError).code).toBe('BAD_REQUEST');
    }
  });
});
