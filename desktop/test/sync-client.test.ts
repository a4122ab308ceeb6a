import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SyncPushInput, SyncPushResult, SyncPullResult } from '@quire/shared/sync/mutations';
import { Outbox } from '../src/core/outbox';
import { ReviewCache } from '../src/core/review-cache';
import { openStore, type LocalStore } from '../src/core/store';
import { Reviews } from '../src/core/reviews';
import { SyncClient } from '../src/core/sync-client';
import type { ServerClient } from '../src/core/server-client';

/** When the sync client pushes (debounce, backoff, sync.now), against a stand-in server whose answers the test decides. */
let dataDir: string;
let store: LocalStore;
let sync: SyncClient;
let reviews: Reviews;
let outbox: Outbox;
let reachable: boolean;
const pushes: Array<{ at: number; input: SyncPushInput }> = [];
const projectId = 'prj_docs';

const fakeServer = {
  sync: {
    push: {
      mutate: async (input: SyncPushInput): Promise<SyncPushResult> => {
        pushes.push({ at: Date.now(), input });
        if (!reachable) throw new TypeError('fetch failed');
        const results = input.mutations.map((m) => ({ seq: m.seq, ok: true as const, result: { commentId: `cmt_${m.seq}` } }));
        return { lastSeq: input.mutations[input.mutations.length - 1]!.seq, results };
      },
    },
    pull: { query: async (): Promise<SyncPullResult> => ({ cursor: 'c', reviews: [], removedReviewIds: [] }) },
  },
} as unknown as ServerClient;

function comment(body: string) {
  reviews.comment({ projectId, reviewId: 'rev_1', path: 'index.mdx', lineStart: 1, lineEnd: 1, body });
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-sync-client-test-'));
  store = openStore(dataDir);
  store.saveSession({ serverUrl: 'http://quire.test', userId: 'usr_me', email: 'me@acme.test', name: 'Me', orgId: 'org_1', orgName: 'Acme', role: 'reviewer', expiresAt: '2099-01-01T00:00:00.000Z' });
  store.saveWorkspace(projectId, 'main', 'a'.repeat(40), [{ path: 'index.mdx', size: 5, content: 'text\n' }]);
  reachable = false;
  pushes.length = 0;
  outbox = new Outbox(store, () => {
    const s = store.session();
    return s ? `${s.serverUrl} ${s.userId}` : null;
  });
  const cache = new ReviewCache(store);
  reviews = new Reviews({
    store,
    outbox,
    cache,
    session: () => store.session(),
    client: () => fakeServer,
    queued: () => sync.notify(),
    flush: () => sync.sync(),
  });
  cache.applyPull(projectId, {
    reviews: [
      {
        review: {
          id: 'rev_1', title: 'T', description: '', status: 'open', author: null, reviewers: [], mentioned: [], baseCommit: 'a'.repeat(40), branch: 'main', revision: 1,
          changes: [], previewUrl: '', previewBuildId: null, labels: [], commentCount: 0, unresolvedCount: 0, resolvedThreadsRequired: false, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
        },
        comments: [],
        files: [],
      },
    ],
    removedReviewIds: [],
  });
  const client = () => ({ client: fakeServer, serverUrl: 'http://quire.test' });
  sync = new SyncClient({ store, outbox, cache, client }, { debounceMs: 300, periodMs: 15_000, minBackoffMs: 1_000, maxBackoffMs: 60_000 });
});
afterEach(() => {
  sync.stop();
  vi.useRealTimers();
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('sync client timing', () => {
  it('pushes shortly after a local change, retries 1 s doubling while the server is unreachable, and sync.now retries at once', async () => {
    comment('one');
    await vi.advanceTimersByTimeAsync(299);
    expect(pushes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(pushes.map((p) => p.at)).toEqual([300]);
    expect(sync.status()).toMatchObject({ state: 'offline', pending: 1, lastError: 'The Quire server at http://quire.test cannot be reached.' });
    // a change made while backing off waits for the next retry
    comment('two');
    await vi.advanceTimersByTimeAsync(7_000);
    expect(pushes.map((p) => p.at)).toEqual([300, 1_300, 3_300, 7_300]);
    expect(pushes[3]!.input.mutations.map((m) => m.seq)).toEqual([1, 2]);
    expect(sync.status().items.map((i) => i.attempts)).toEqual([4, 3]);

    reachable = true;
    const status = await sync.now();
    expect(pushes.map((p) => p.at)).toEqual([300, 1_300, 3_300, 7_300, 7_300]);
    expect(status).toMatchObject({ state: 'synced', pending: 0, lastError: null, items: [] });
    // then every 15 s
    await vi.advanceTimersByTimeAsync(15_000);
    expect(outbox.items(['done']).map((i) => i.result)).toEqual([{ commentId: 'cmt_1' }, { commentId: 'cmt_2' }]);
  });

  it('caps the backoff at 60 s', async () => {
    sync.start();
    comment('one');
    await vi.advanceTimersByTimeAsync(200_000);
    const gaps = pushes.slice(1).map((p, i) => p.at - pushes[i]!.at);
    expect(gaps.slice(0, 7)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000]);
  });
});
