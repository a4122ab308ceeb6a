import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Review } from '@quire/shared/api/reviews';
import { CoreError } from '../src/core/core-error';
import { Outbox } from '../src/core/outbox';
import { ReviewCache } from '../src/core/review-cache';
import { openStore, type LocalStore } from '../src/core/store';
import { Reviews } from '../src/core/reviews';
import { reviewFixture } from './helpers/review-fixtures';

/** The local review store and actions with no server at all (never reached): what the person sees at once. */
let dataDir: string;
let store: LocalStore;
let reviews: Reviews;
let outbox: Outbox;
let cache: ReviewCache;
let queued = 0;
const projectId = 'prj_docs';
const sha = 'a'.repeat(40);

const session = (userId: string) => ({
  serverUrl: 'http://quire.test',
  userId,
  email: `${userId}@acme.test`,
  name: userId,
  orgId: 'org_acme',
  orgName: 'Acme',
  role: 'editor',
  expiresAt: '2099-01-01T00:00:00.000Z',
});

function serverReview(over: Partial<Review> = {}): Review {
  return reviewFixture({
    id: 'rev_server1',
    title: 'Server review',
    author: { id: 'usr_writer', name: 'Writer', email: 'writer@acme.test' },
    baseCommit: sha,
    previewUrl: 'http://preview.test/',
    ...over,
  });
}

async function errorOf(f: () => unknown): Promise<CoreError> {
  const err = await Promise.resolve().then(f).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(CoreError);
  return err as CoreError;
}

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-reviews-test-'));
  store = openStore(dataDir);
  store.saveSession(session('usr_me'));
  store.saveWorkspace(projectId, 'main', sha, [
    { path: 'index.mdx', size: 10, content: 'line one\nline two\n' },
    { path: 'guide.mdx', size: 10, content: 'guide\n' },
  ]);
  queued = 0;
  outbox = new Outbox(store, () => {
    const s = store.session();
    return s ? `${s.serverUrl} ${s.userId}` : null;
  });
  cache = new ReviewCache(store);
  reviews = new Reviews({
    store,
    outbox,
    cache,
    session: () => store.session(),
    client: () => null,
    queued: () => void queued++,
    flush: async () => undefined,
  });
});
afterEach(() => {
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('local reviews', () => {
  it('proposes edited and new files, skipping unedited ones, and shows the review at once as local only', () => {
    store.writeFile(projectId, 'index.mdx', 'line one\nline 2\n');
    store.writeFile(projectId, 'new.mdx', 'brand new\n');
    const r = reviews.propose({ projectId, title: 'Edits', paths: ['index.mdx', 'guide.mdx', 'new.mdx'] });
    expect(r).toMatchObject({ localOnly: true, pending: true, status: 'open', revision: 1, baseCommit: sha, branch: 'main', author: { id: 'usr_me' } });
    expect(r.changes).toEqual([
      { path: 'index.mdx', change: 'modified' },
      { path: 'new.mdx', change: 'added' },
    ]);
    expect(queued).toBe(1);
    expect(reviews.get(projectId, r.id).files).toEqual([
      { path: 'index.mdx', change: 'modified', before: 'line one\nline two\n', after: 'line one\nline 2\n' },
      { path: 'new.mdx', change: 'added', before: null, after: 'brand new\n' },
    ]);
    expect(outbox.items()[0]!.mutation).toMatchObject({ type: 'review.create', localId: r.id, review: { baseCommit: sha, changes: [{ path: 'index.mdx' }, { path: 'new.mdx' }] } });
  });

  it('tells which local edits an open review of mine already carries, with the same text or edited since', () => {
    expect(reviews.inReview(projectId)).toEqual([]);
    store.writeFile(projectId, 'index.mdx', 'line one\nline 2\n');
    store.writeFile(projectId, 'new.mdx', 'brand new\n');
    const r = reviews.propose({ projectId, title: 'Edits', paths: ['index.mdx'] });
    expect(reviews.inReview(projectId)).toEqual([{ path: 'index.mdx', reviewId: r.id, title: 'Edits', same: true }]);
    store.writeFile(projectId, 'index.mdx', 'line one\nline II\n');
    expect(reviews.inReview(projectId)).toEqual([{ path: 'index.mdx', reviewId: r.id, title: 'Edits', same: false }]);
  });

  it('counts pulled reviews that are mine and open, not other people\'s or closed ones', () => {
    store.writeFile(projectId, 'index.mdx', 'line one\nline 2\n');
    store.deleteFile(projectId, 'guide.mdx');
    const mine = { id: 'usr_me', name: 'me', email: 'me@acme.test' };
    const files = [
      { path: 'guide.mdx', change: 'deleted' as const, before: 'guide\n', after: null, truncated: false },
      { path: 'index.mdx', change: 'modified' as const, before: 'line one\nline two\n', after: 'line one\nline 2\n', truncated: false },
    ];
    cache.applyPull(projectId, {
      reviews: [
        { review: serverReview({ id: 'rev_theirs', title: 'Theirs' }), comments: [], files },
        { review: serverReview({ id: 'rev_closed', title: 'Closed', author: mine, status: 'closed' }), comments: [], files },
        { review: serverReview({ id: 'rev_mine', title: 'Mine', author: mine, status: 'approved' }), comments: [], files },
      ],
      removedReviewIds: [],
    });
    expect(reviews.inReview(projectId)).toEqual([
      { path: 'guide.mdx', reviewId: 'rev_mine', title: 'Mine', same: true },
      { path: 'index.mdx', reviewId: 'rev_mine', title: 'Mine', same: true },
    ]);
  });

  it('comments and replies on a review proposed offline, shown at once with the reply in the thread', () => {
    store.writeFile(projectId, 'index.mdx', 'line one\nline 2\n');
    const r = reviews.propose({ projectId, title: 'Edits', paths: ['index.mdx'] });
    const c = reviews.comment({ projectId, reviewId: r.id, path: 'index.mdx', lineStart: 2, lineEnd: 2, body: ' Why 2? ' });
    const reply = reviews.comment({ projectId, reviewId: r.id, path: 'index.mdx', lineStart: 2, lineEnd: 2, body: 'Digits read faster.', parentId: c.id });
    expect(c).toMatchObject({ pending: true, body: 'Why 2?', reviewId: r.id, revision: 1, parentId: null });
    const detail = reviews.get(projectId, r.id);
    expect(detail.commentCount).toBe(2);
    expect(detail.comments.map((x) => [x.id, x.parentId])).toEqual([
      [c.id, null],
      [reply.id, c.id],
    ]);
    expect(outbox.items().map((i) => i.seq)).toEqual([1, 2, 3]);
  });

  it('updates the changes of a review with the current local edits: a new revision, back to open, pending', async () => {
    cache.applyPull(projectId, { reviews: [{ review: serverReview({ author: { id: 'usr_me', name: 'me', email: 'me@acme.test' }, status: 'changes_requested' }), comments: [], files: [] }], removedReviewIds: [] });
    expect(await errorOf(() => reviews.updateChanges(projectId, 'rev_server1'))).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/^paths: none/) });
    store.writeFile(projectId, 'index.mdx', 'line one\nline II\n');
    expect(reviews.updateChanges(projectId, 'rev_server1')).toMatchObject({ revision: 2, status: 'open', pending: true });
    expect(outbox.items()[0]!.mutation).toEqual({ type: 'review.update', projectId, reviewId: 'rev_server1', patch: { changes: [{ path: 'index.mdx', content: 'line one\nline II\n' }], baseCommit: sha } });
  });

  it('approves a pulled review at once (pending) with the revision shown, and refuses here what the review rules refuse', async () => {
    cache.applyPull(projectId, { reviews: [{ review: serverReview({ revision: 3 }), comments: [], files: [] }], removedReviewIds: [] });
    expect(reviews.setStatus(projectId, 'rev_server1', 'approved')).toMatchObject({ status: 'approved', pending: true });
    expect(outbox.items()[0]!.mutation).toMatchObject({ type: 'review.setStatus', status: 'approved', revision: 3 });
    const again = await errorOf(() => reviews.setStatus(projectId, 'rev_server1', 'approved'));
    expect(again).toMatchObject({ code: 'CONFLICT', message: 'A review cannot go from "approved" to "approved".' });
    // a pull that brings the server's older copy does not hide the pending approval
    cache.applyPull(projectId, { reviews: [{ review: serverReview({ revision: 3, title: 'Renamed' }), comments: [], files: [] }], removedReviewIds: [] });
    expect(reviews.list(projectId).items[0]).toMatchObject({ title: 'Renamed', status: 'approved', pending: true });
    // the server refuses it: the status is the server's again and the reason shows
    outbox.acknowledge({ lastSeq: 1, results: [{ seq: 1, ok: false, code: 'conflict', message: 'The review changed since you reviewed it.' }] });
    expect(reviews.list(projectId).items[0]).toMatchObject({ status: 'open', pending: false, problem: 'The review changed since you reviewed it.' });
  });

  it('refuses a comment on a review known to be merged, and reading a review this computer does not know', async () => {
    cache.applyPull(projectId, { reviews: [{ review: serverReview({ status: 'merged' }), comments: [], files: [] }], removedReviewIds: [] });
    expect(await errorOf(() => reviews.comment({ projectId, reviewId: 'rev_server1', path: 'index.mdx', lineStart: 1, lineEnd: 1, body: 'Late' }))).toMatchObject({ code: 'CONFLICT' });
    expect(await errorOf(() => reviews.get(projectId, 'rev_unknown'))).toMatchObject({ code: 'NOT_FOUND' });
    expect(outbox.items()).toEqual([]);
  });

  it('asks for a sign-in before any action, and lists the cached people who may review when offline', async () => {
    store.cache('members:http://quire.test:org_acme', [
      { user: { id: 'usr_me', name: 'Me', email: 'me@acme.test' }, role: 'editor', joinedAt: '' },
      { user: { id: 'usr_b', name: 'Bea', email: 'bea@acme.test' }, role: 'reviewer', joinedAt: '' },
      { user: { id: 'usr_a', name: 'Al', email: 'al@acme.test' }, role: 'admin', joinedAt: '' },
      { user: { id: 'usr_v', name: 'Vi', email: 'vi@acme.test' }, role: 'viewer', joinedAt: '' },
    ]);
    expect((await reviews.people()).map((p) => [p.name, p.role])).toEqual([
      ['Al', 'admin'],
      ['Bea', 'reviewer'],
    ]);
    store.clearSession();
    store.writeFile(projectId, 'index.mdx', 'changed\n');
    expect(await errorOf(() => reviews.propose({ projectId, title: 'x', paths: ['index.mdx'] }))).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
