import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { createCore, type DesktopCore } from '../src/core/compose';
import { createCoreCaller } from '../src/core/router';
import { fileTokenVault, type TokenVault } from '../src/core/token-vault';

/**
 * Adding an image from the editor (`files.addBinary`): into a server project's workspace as a local
 * change the proposal carries as base64, or into a local folder on disk; refused types and sizes
 * change nothing; the preview serves the image with its type.
 */
let dataDir: string;
let dc: DesktopCore;
let vault: TokenVault;
let c: ReturnType<typeof createCoreCaller>;
const projectId = 'prj_docs';
const sha = 'c'.repeat(40);
const docsJson = JSON.stringify({ name: 'Acme', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } });
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const b64 = (b: Buffer) => b.toString('base64');

async function errorOf(p: Promise<unknown>): Promise<TRPCError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TRPCError);
  return err as TRPCError;
}

function signIn(serverUrl: string): void {
  dc.store.saveSession({
    serverUrl, userId: 'usr_me', email: 'me@acme.test', name: 'Me',
    orgId: 'org_acme', orgName: 'Acme', role: 'editor', expiresAt: '2099-01-01T00:00:00.000Z',
  });
  vault.set('qk_test_token');
}

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-add-image-'));
  vault = fileTokenVault(dataDir);
  dc = createCore({ dataDir, vault, sync: { auto: false } });
  c = createCoreCaller(dc);
  dc.store.saveWorkspace(projectId, 'main', sha, [
    { path: 'docs/docs.json', size: docsJson.length, content: docsJson },
    { path: 'docs/index.mdx', size: 20, content: '---\ntitle: Welcome\n---\n\nHello.\n' },
    { path: 'docs/images/logo.png', size: 7, content: null },
  ]);
});
afterEach(async () => {
  await dc.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('adding an image to a server project', () => {
  it('stores it under a slugged, unique name as an added file, with its site URL', async () => {
    const first = await c.files.addBinary({ projectId, path: 'docs/images/My Diagram.PNG', contentBase64: b64(PNG) });
    expect(first).toEqual({ path: 'docs/images/my-diagram.png', size: PNG.length, url: '/images/my-diagram.png' });
    const second = await c.files.addBinary({ projectId, path: 'docs/images/my-diagram.png', contentBase64: b64(PNG) });
    expect(second.path).toBe('docs/images/my-diagram-1.png');
    // a name the base commit has is not overwritten
    expect((await c.files.addBinary({ projectId, path: 'docs/images/logo.png', contentBase64: b64(PNG) })).path).toBe('docs/images/logo-1.png');

    expect(await c.workspace.changes({ projectId })).toEqual(['docs/images/logo-1.png', 'docs/images/my-diagram-1.png', 'docs/images/my-diagram.png']);
    const tree = JSON.stringify(await c.workspace.tree({ projectId }));
    expect(tree).toContain('"path":"docs/images/my-diagram.png"');
    expect(await c.workspace.changedFiles({ projectId })).toContainEqual({ path: 'docs/images/my-diagram.png', change: 'added', binarySize: PNG.length });
    const diff = await c.workspace.changeDiff({ projectId, path: 'docs/images/my-diagram.png' });
    expect(diff).toMatchObject({ change: 'added', before: null, after: null, binarySize: PNG.length, previewUrl: '/_quire-preview/prj_docs/images/my-diagram.png' });
  });

  it('proposes it as a base64 entry of the change set', async () => {
    signIn('http://quire.test');
    await c.files.addBinary({ projectId, path: 'docs/images/flow.png', contentBase64: b64(PNG) });
    await c.files.write({ projectId, path: 'docs/index.mdx', content: '---\ntitle: Welcome\n---\n\n![flow](/images/flow.png)\n' });
    await c.reviews.propose({ projectId, title: 'Add the flow', paths: ['docs/images/flow.png', 'docs/index.mdx'] });
    const [item] = dc.outbox.items();
    expect(item!.mutation.type).toBe('review.create');
    const changes = (item!.mutation as { review: { changes: unknown[] } }).review.changes;
    expect(changes).toEqual([
      { path: 'docs/images/flow.png', content: b64(PNG), encoding: 'base64' },
      { path: 'docs/index.mdx', content: '---\ntitle: Welcome\n---\n\n![flow](/images/flow.png)\n' },
    ]);
  });

  it('refuses other types, files past 5 MiB and bytes that are not base64, and writes nothing', async () => {
    const pdf = await errorOf(c.files.addBinary({ projectId, path: 'docs/images/spec.pdf', contentBase64: b64(Buffer.from('%PDF-1.4')) }));
    expect(pdf.code).toBe('BAD_REQUEST');
    expect(pdf.message).toBe('spec.pdf is not an image Quire can add: use a PNG, JPEG, GIF, WebP, SVG or AVIF file.');
    const big = await errorOf(c.files.addBinary({ projectId, path: 'docs/images/huge.png', contentBase64: b64(Buffer.alloc(5 * 1024 * 1024 + 1)) }));
    expect(big.code).toBe('BAD_REQUEST');
    expect(big.message).toBe('huge.png is 5.0 MiB; an image may be at most 5 MiB.');
    const bad = await errorOf(c.files.addBinary({ projectId, path: 'docs/images/a.png', contentBase64: 'not base64!' }));
    expect(bad.message).toMatch(/^contentBase64: /);
    expect(await c.workspace.changes({ projectId })).toEqual([]);
  });

  it('takes exactly 5 MiB; proposing a file past the change set limit says so before anything is queued', async () => {
    const added = await c.files.addBinary({ projectId, path: 'docs/images/big.webp', contentBase64: b64(Buffer.alloc(5 * 1024 * 1024)) });
    expect(added.size).toBe(5 * 1024 * 1024);
    signIn('http://quire.test');
    const refused = await errorOf(c.reviews.propose({ projectId, title: 'Big', paths: ['docs/images/big.webp'] }));
    expect(refused.code).toBe('BAD_REQUEST');
    expect(refused.message).toMatch(/^"docs\/images\/big.webp" has 5242880 bytes; a file in a change set has at most 2097152 bytes \(2 MiB\)/);
    expect(dc.outbox.items()).toEqual([]);
  });
});

describe('adding an image to a local folder', () => {
  it('writes its bytes into the folder, and the preview serves it as an image', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-add-image-folder-'));
    try {
      fs.writeFileSync(path.join(folder, 'docs.json'), docsJson);
      fs.writeFileSync(path.join(folder, 'index.mdx'), '# Welcome\n');
      const local = (await c.workspace.openFolder({ path: folder })).projectId;
      const added = await c.files.addBinary({ projectId: local, path: 'images/Screen shot.png', contentBase64: b64(PNG) });
      expect(added).toEqual({ path: 'images/screen-shot.png', size: PNG.length, url: '/images/screen-shot.png' });
      expect(fs.readFileSync(path.join(folder, 'images', 'screen-shot.png')).equals(PNG)).toBe(true);
      const answer = await dc.previewFiles.answer(`/_quire-preview/${local}/images/screen-shot.png`);
      expect(answer.status).toBe(200);
      if (answer.status !== 200) return;
      expect(answer.headers['content-type']).toBe('image/png');
      expect(answer.body.equals(PNG)).toBe(true);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('the preview of a server project\'s images', () => {
  it('serves an added image from the store with its type (SVG with the inert policy)', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
    await c.files.addBinary({ projectId, path: 'docs/images/shape.svg', contentBase64: b64(svg) });
    const png = await dc.previewFiles.answer(`/_quire-preview/${projectId}/images/logo.png`);
    expect(png.status).toBe(404); // not stored, nobody signed in
    const answer = await dc.previewFiles.answer(`/_quire-preview/${projectId}/images/shape.svg`);
    expect(answer).toMatchObject({ status: 200, headers: { 'content-type': 'image/svg+xml', 'content-security-policy': expect.stringContaining('sandbox') } });
  });

  it('fetches a base commit\'s image from the server once and keeps it for offline work; offline and not kept, a clear 404', async () => {
    const calls: string[] = [];
    const server = http.createServer((req, res) => {
      calls.push(req.url ?? '');
      const input = JSON.parse(new URL(req.url!, 'http://x').searchParams.get('input') ?? '{}') as { path: string; commitSha: string };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: { data: { path: input.path, content: b64(PNG), size: PNG.length } } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    signIn(serverUrl);
    try {
      const first = await dc.previewFiles.answer(`/_quire-preview/${projectId}/images/logo.png`);
      expect(first).toMatchObject({ status: 200, headers: { 'content-type': 'image/png' } });
      expect(first.status === 200 && first.body.equals(PNG)).toBe(true);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatch(/^\/trpc\/files\.readBytes\?input=/);
      expect(decodeURIComponent(calls[0]!)).toContain(`"commitSha":"${sha}"`);
    } finally {
      await new Promise((r) => server.close(r));
    }
    // the server is gone: the kept bytes answer
    const again = await dc.previewFiles.answer(`/_quire-preview/${projectId}/images/logo.png`);
    expect(again.status).toBe(200);
    expect(calls).toHaveLength(1);
    // another base file was never fetched: offline, it is a 404 that says why
    dc.store.saveWorkspace(projectId, 'main', sha, [
      { path: 'docs/docs.json', size: docsJson.length, content: docsJson },
      { path: 'docs/images/logo.png', size: 7, content: null },
      { path: 'docs/images/other.png', size: 7, content: null },
    ]);
    const offline = await dc.previewFiles.answer(`/_quire-preview/${projectId}/images/other.png`);
    expect(offline).toEqual({ status: 404, message: 'images/other.png is not stored on this computer and the Quire server cannot be reached; it shows once you are online.' });
    // a new base commit drops the kept bytes (the file may have changed)
    dc.store.saveWorkspace(projectId, 'main', 'd'.repeat(40), [{ path: 'docs/docs.json', size: docsJson.length, content: docsJson }, { path: 'docs/images/logo.png', size: 7, content: null }]);
    expect(dc.store.fileBytes(projectId, 'docs/images/logo.png')).toBeNull();
  });
});
