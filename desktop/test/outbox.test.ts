import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type LocalStore } from '../src/core/store';
import { Outbox } from '../src/core/outbox';
import type { SyncMutation } from '@quire/shared/sync/mutations';

/** The durable outbox alone (no server): numbering, order, durability, acknowledgements. */
let dataDir: string;
let store: LocalStore;

const comment = (body: string, parentId?: string, localId = crypto.randomUUID()): SyncMutation => ({
  type: 'review.comment',
  projectId: 'prj_1',
  reviewId: 'rev_1',
  localId,
  comment: { path: 'index.mdx', lineStart: 1, lineEnd: 2, body, ...(parentId ? { parentId } : {}) },
  revision: 1,
});
const approve: SyncMutation = { type: 'review.setStatus', projectId: 'prj_1', reviewId: 'rev_1', status: 'approved', revision: 1 };

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-outbox-test-'));
  store = openStore(dataDir);
});
afterEach(() => {
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('outbox', () => {
  it('numbers mutations 1, 2, 3 under one client id kept across restarts, and hands them out in that order', () => {
    const outbox = new Outbox(store);
    const clientId = outbox.clientId();
    expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(outbox.enqueue(comment('first'), 'c1').seq).toBe(1);
    expect(outbox.enqueue(approve, 'a').seq).toBe(2);
    store.close();
    store = openStore(dataDir);
    const again = new Outbox(store);
    expect(again.clientId()).toBe(clientId);
    expect(again.enqueue(comment('third'), 'c3').seq).toBe(3);
    expect(again.pendingCount()).toBe(3);
    expect(again.nextBatch().map((i) => [i.seq, i.type])).toEqual([
      [1, 'review.comment'],
      [2, 'review.setStatus'],
      [3, 'review.comment'],
    ]);
    expect(again.nextBatch(2).map((i) => i.seq)).toEqual([1, 2]);
  });

  it('keeps a mutation written before an unclean stop (the store is not closed) and never reuses a number', () => {
    const outbox = new Outbox(store);
    outbox.enqueue(comment('kept'), 'c');
    // a second connection to the same file sees the row: it is on disk, not in a buffer
    const other = openStore(dataDir);
    expect(new Outbox(other).items().map((i) => (i.mutation as { comment: { body: string } }).comment.body)).toEqual(['kept']);
    other.close();
    outbox.acknowledge({ lastSeq: 1, results: [{ seq: 1, ok: true, result: { commentId: 'cmt_1' } }] });
    expect(outbox.enqueue(approve, 'a').seq).toBe(2);
  });

  it('refuses a mutation the server schema would refuse, naming the field, and queues nothing', () => {
    const outbox = new Outbox(store);
    expect(() => outbox.enqueue({ ...approve, revision: 0 } as SyncMutation, 'bad')).toThrow(/revision/);
    expect(() => outbox.enqueue(comment('   '), 'empty')).toThrow(/comment\.body/);
    expect(outbox.items()).toEqual([]);
  });

  it('marks answered items done or refused with the server\'s reason, keeps the local text, and leaves unanswered ones pending', () => {
    const outbox = new Outbox(store);
    const c = outbox.enqueue(comment('Please reword this.'), 'c');
    outbox.enqueue(approve, 'a');
    outbox.enqueue(comment('later'), 'c2');
    outbox.markSent([1, 2, 3]);
    outbox.acknowledge({
      lastSeq: 2,
      results: [
        { seq: 1, ok: true, result: { commentId: 'cmt_server1' } },
        { seq: 2, ok: false, code: 'conflict', message: 'The review was merged meanwhile.' },
      ],
    });
    const [first, second, third] = outbox.items();
    expect(first).toMatchObject({ state: 'done', attempts: 1, result: { commentId: 'cmt_server1' } });
    expect(outbox.serverId(c.localId!)).toBe('cmt_server1');
    expect(second).toMatchObject({ state: 'refused', code: 'conflict', reason: 'The review was merged meanwhile.', mutation: approve });
    expect(third).toMatchObject({ state: 'pending', attempts: 1 });
    expect(outbox.pendingCount()).toBe(1);
    expect(outbox.nextBatch().map((i) => i.seq)).toEqual([3]);
    // a second answer for an answered item changes nothing (a replayed batch)
    outbox.acknowledge({ lastSeq: 2, results: [{ seq: 2, ok: true, result: {} }] });
    expect(outbox.item(2)!.state).toBe('refused');
    expect(outbox.dismiss(2)).toBe(true);
    expect(outbox.unsettled().map((i) => i.seq)).toEqual([1, 3]);
    outbox.settle(2);
    expect(outbox.unsettled().map((i) => i.seq)).toEqual([3]);
  });

  it('sends a reply after its parent comment: in the same batch it waits, once applied it names the parent\'s server id', () => {
    const outbox = new Outbox(store);
    const parent = outbox.enqueue(comment('parent'), 'p');
    outbox.enqueue(comment('reply', parent.localId!), 'r');
    expect(outbox.nextBatch().map((i) => i.seq)).toEqual([1]);
    outbox.acknowledge({ lastSeq: 1, results: [{ seq: 1, ok: true, result: { commentId: 'cmt_parent' } }] });
    const [reply] = outbox.nextBatch();
    expect(reply!.mutation).toMatchObject({ comment: { parentId: 'cmt_parent' } });
    expect(outbox.item(2)!.mutation).toMatchObject({ comment: { parentId: 'cmt_parent' } });
  });
});
