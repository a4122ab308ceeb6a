import { describe, expect, it } from 'vitest';
import { SyncMutationSchema, SyncPullInputSchema, SyncPushInputSchema } from '../../src/sync/mutations';

const sha = 'a'.repeat(40);
const uuid = '0b6f2f3e-1c4a-4d0e-9a43-6f1f6c1e2d3a';

describe('sync mutations', () => {
  it('takes each kind of mutation the outbox sends', () => {
    const mutations = [
      { type: 'review.create', projectId: 'prj_1', localId: uuid, review: { title: 'Edit', baseCommit: sha.toUpperCase(), changes: [{ path: 'a.md', content: 'a' }, { path: 'b.md', deleted: true }] } },
      { type: 'review.update', projectId: 'prj_1', reviewId: uuid, patch: { title: 'Better title' } },
      { type: 'review.setStatus', projectId: 'prj_1', reviewId: 'rev_1', status: 'approved', revision: 2 },
      { type: 'review.comment', projectId: 'prj_1', reviewId: 'rev_1', localId: uuid, comment: { path: 'a.md', lineStart: 1, lineEnd: 2, body: 'Hm.' }, revision: 1, anchorText: 'a\nb' },
    ];
    for (const m of mutations) expect(SyncMutationSchema.safeParse(m).success).toBe(true);
    // The base commit is read as the REST body reads it (lower case).
    expect(SyncMutationSchema.parse(mutations[0]!)).toMatchObject({ review: { baseCommit: sha } });
  });

  it('refuses what the REST bodies refuse, naming the field', () => {
    const issue = (m: unknown) => SyncMutationSchema.safeParse(m).error?.issues[0];
    expect(issue({ type: 'review.create', projectId: 'prj_1', localId: 'not-a-uuid', review: { title: 'x', baseCommit: sha, changes: [] } })?.path).toEqual(['localId']);
    expect(issue({ type: 'review.create', projectId: 'prj_1', localId: uuid, review: { title: ' ', baseCommit: sha, changes: [] } })?.path).toEqual(['review', 'title']);
    expect(issue({ type: 'review.update', projectId: 'prj_1', reviewId: 'rev_1', patch: {} })?.message).toMatch(/at least one field/);
    expect(issue({ type: 'review.setStatus', projectId: 'prj_1', reviewId: 'rev_1', status: 'merged', revision: 1 })?.path).toEqual(['status']);
    expect(issue({ type: 'review.comment', projectId: 'prj_1', reviewId: 'rev_1', localId: uuid, comment: { path: 'a.md', lineStart: 3, lineEnd: 2, body: 'x' }, revision: 1 })?.path).toEqual(['comment', 'lineEnd']);
    expect(issue({ type: 'review.delete', projectId: 'prj_1' })?.path).toEqual(['type']);
  });

  it('bounds a push to 1..100 numbered mutations from a client with a UUID, and a pull cursor to 100 characters', () => {
    const one = { seq: 1, mutation: { type: 'review.setStatus', projectId: 'prj_1', reviewId: 'rev_1', status: 'closed', revision: 1 } };
    expect(SyncPushInputSchema.safeParse({ clientId: uuid, mutations: [one] }).success).toBe(true);
    expect(SyncPushInputSchema.safeParse({ clientId: uuid, mutations: [] }).success).toBe(false);
    expect(SyncPushInputSchema.safeParse({ clientId: uuid, mutations: Array.from({ length: 101 }, (_, i) => ({ ...one, seq: i + 1 })) }).success).toBe(false);
    expect(SyncPushInputSchema.safeParse({ clientId: uuid, mutations: [{ ...one, seq: 0 }] }).success).toBe(false);
    expect(SyncPushInputSchema.safeParse({ clientId: 'desktop-1', mutations: [one] }).success).toBe(false);
    expect(SyncPullInputSchema.safeParse({ cursor: null }).success).toBe(true);
    expect(SyncPullInputSchema.safeParse({ cursor: 'x'.repeat(101) }).success).toBe(false);
  });
});
