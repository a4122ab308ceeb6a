import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../server/test/services/identity-fixtures';
import { createCore, type DesktopCore } from '../src/core/compose';
import { createCoreCaller } from '../src/core/router';
import { fileTokenVault } from '../src/core/token-vault';
import { startServerFixture, type ServerFixture } from './server-fixture';

/**
 * A server project's images in the live preview, against a real Quire server: the workspace holds
 * text only, so the preview fetches an image's bytes once through the server's `files.readBytes`,
 * keeps them in the store, and still shows the image with the server stopped; an image added here
 * shows at once and is listed as an added binary file.
 */
let fx: ServerFixture;
let core: DesktopCore;
// a real PNG header and chunk start: NUL bytes make it binary for the server's file listing
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082', 'hex');

beforeAll(async () => {
  fx = await startServerFixture({
    'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } }),
    'index.mdx': '---\ntitle: Welcome\n---\n\n![Dot](/images/dot.png)\n',
    'images/dot.png': PNG,
  });
  core = createCore({ dataDir: fx.dataDir, vault: fileTokenVault(fx.dataDir), sync: { auto: false } });
});

afterAll(async () => {
  await core?.close();
  await fx?.close();
});

describe('the preview of a server project\'s images', () => {
  it('fetches a base image from the server once, keeps it, and serves it offline; an added image shows at once', async () => {
    const c = createCoreCaller(core);
    await c.session.signIn({ serverUrl: fx.serverUrl, email: 'writer@acme.test', password: TEST_PASSWORD });
    await c.workspace.open({ projectId: fx.projectId });
    expect(await c.files.read({ projectId: fx.projectId, path: 'images/dot.png' })).toMatchObject({ content: null, size: PNG.length });

    const url = `/_quire-preview/${fx.projectId}/images/dot.png`;
    const online = await core.previewFiles.answer(url);
    expect(online).toMatchObject({ status: 200, headers: { 'content-type': 'image/png' } });
    expect(online.status === 200 && online.body.equals(PNG)).toBe(true);
    expect(core.store.fileBytes(fx.projectId, 'images/dot.png')).toMatchObject({ local: false });

    const added = await c.files.addBinary({ projectId: fx.projectId, path: 'images/New Shot.png', contentBase64: PNG.toString('base64') });
    expect(added).toEqual({ path: 'images/new-shot.png', size: PNG.length, url: '/images/new-shot.png' });

    await fx.t.app.close();
    const offline = await core.previewFiles.answer(url);
    expect(offline.status === 200 && offline.body.equals(PNG)).toBe(true);
    const shot = await core.previewFiles.answer(`/_quire-preview/${fx.projectId}/images/new-shot.png`);
    expect(shot).toMatchObject({ status: 200, headers: { 'content-type': 'image/png' } });
    expect(await c.workspace.changedFiles({ projectId: fx.projectId })).toEqual([{ path: 'images/new-shot.png', change: 'added', binarySize: PNG.length }]);
  });
});
