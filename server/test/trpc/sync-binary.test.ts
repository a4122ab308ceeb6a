import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncMutation } from '@quire/shared/sync/mutations';
import { SETUP } from '../routes/reviews-fixture';
import { syncFixture, type SyncFixture } from './sync-fixture';

/**
 * Binary files (base64 change entries) through the desktop's outbox (`sync.push`) and its offline
 * copy (`sync.pull`): carried unchanged, and marked binary with their sizes so a diff shows them as such.
 */
describe('binary files through sync.push and sync.pull', () => {
  let f: SyncFixture;
  let base: string;
  const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x01]);

  beforeAll(async () => {
    f = await syncFixture();
    base = f.repo.commit({ 'images/logo.png': LOGO }, 'add the logo');
  });
  afterAll(async () => {
    await f?.close();
  });

  it('creates and updates a review with images offline, and pulls them back byte for byte', async () => {
    const editor = await f.caller('editor');
    const first = Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x00, 0x01, 0x02]);
    const second = Buffer.from([0x52, 0x49, 0x46, 0x46, 0x00, 0x00, 0x00, 0x00, 0x57, 0x45, 0x42, 0x50]);
    const logo = Buffer.concat([LOGO, Buffer.from([0x00, 0x42])]);
    const reviewLocal = randomUUID();
    const create: SyncMutation = {
      type: 'review.create',
      projectId: f.projectId,
      localId: reviewLocal,
      review: { title: 'Offline images', baseCommit: base, changes: [{ path: 'images/first.gif', content: first.toString('base64'), encoding: 'base64' }] },
    };
    const changes = [
      { path: 'images/second.webp', content: second.toString('base64'), encoding: 'base64' as const },
      { path: 'images/logo.png', content: logo.toString('base64'), encoding: 'base64' as const },
      { path: 'guides/setup.mdx', content: `${SETUP}\n![Logo](/images/logo.png)\n` },
    ];
    const update: SyncMutation = { type: 'review.update', projectId: f.projectId, reviewId: reviewLocal, patch: { changes } };
    const batch = { clientId: randomUUID(), mutations: [{ seq: 1, mutation: create }, { seq: 2, mutation: update }] };
    const pushed = await editor.sync.push(batch);
    expect(pushed.results.map((r) => r.ok)).toEqual([true, true]);
    const reviewId = (pushed.results[0] as { result: { reviewId: string } }).result.reviewId;
    // sent again (the outbox retries after a lost answer): the same answers, nothing applied twice
    expect(await editor.sync.push(batch)).toEqual(pushed);

    const pulled = await editor.sync.pull({ cursor: null, projectIds: [f.projectId] });
    const snapshot = pulled.reviews.find((r) => r.review.id === reviewId)!;
    expect(snapshot.review).toMatchObject({ revision: 2 });
    expect(snapshot.review.changes).toEqual([
      { path: 'guides/setup.mdx', change: 'modified', previewUrl: expect.any(String) },
      { path: 'images/logo.png', change: 'modified', binary: true },
      { path: 'images/second.webp', change: 'added', binary: true },
    ]);
    expect(snapshot.files).toEqual([
      { path: 'guides/setup.mdx', change: 'modified', before: SETUP, after: changes[2]!.content },
      {
        path: 'images/logo.png',
        change: 'modified',
        before: LOGO.toString('base64'),
        after: logo.toString('base64'),
        binary: true,
        encoding: 'base64',
        beforeSize: LOGO.length,
        afterSize: logo.length,
      },
      { path: 'images/second.webp', change: 'added', before: null, after: second.toString('base64'), binary: true, encoding: 'base64', beforeSize: null, afterSize: second.length },
    ]);
  });

  it('pulls a text change of a file that is binary at the base commit as binary, both sides base64', async () => {
    const editor = await f.caller('editor');
    const pushed = await editor.sync.push({
      clientId: randomUUID(),
      mutations: [
        {
          seq: 1,
          mutation: { type: 'review.create', projectId: f.projectId, localId: randomUUID(), review: { title: 'Logo as text', baseCommit: base, changes: [{ path: 'images/logo.png', content: 'not a png' }] } },
        },
      ],
    });
    const reviewId = (pushed.results[0] as { result: { reviewId: string } }).result.reviewId;
    const snapshot = (await editor.sync.pull({ cursor: null, projectIds: [f.projectId] })).reviews.find((r) => r.review.id === reviewId)!;
    expect(snapshot.files).toEqual([
      {
        path: 'images/logo.png',
        change: 'modified',
        before: LOGO.toString('base64'),
        after: Buffer.from('not a png').toString('base64'),
        binary: true,
        encoding: 'base64',
        beforeSize: LOGO.length,
        afterSize: 9,
      },
    ]);
  });
});
