import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type DesktopCore } from '../src/core/compose';
import { createCoreCaller } from '../src/core/router';
import { fileTokenVault } from '../src/core/token-vault';

/** The "Viewed" checkboxes of a review: kept per review and revision in the core's local store, offline, across restarts. */
let dataDir: string;
let core: DesktopCore | null = null;
const ids = { projectId: 'prj_docs', reviewId: 'rev_server1' };

/** Opens (or reopens, as after a restart) the core on the same data directory, with no server and no background sync. */
function start() {
  core = createCore({ dataDir, vault: fileTokenVault(dataDir), sync: { auto: false } });
  return createCoreCaller(core);
}

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-viewed-'));
});

afterEach(async () => {
  await core?.close();
  core = null;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('viewed files of a review', () => {
  it('are remembered per review and revision, without a server, and survive a restart', async () => {
    let c = start();
    expect(await c.reviews.viewed({ ...ids, revision: 2 })).toEqual([]);
    expect(await c.reviews.setViewed({ ...ids, revision: 2, path: 'guides/setup.mdx', viewed: true })).toEqual(['guides/setup.mdx']);
    expect(await c.reviews.setViewed({ ...ids, revision: 2, path: 'index.mdx', viewed: true })).toEqual(['guides/setup.mdx', 'index.mdx']);
    expect(await c.reviews.setViewed({ ...ids, revision: 2, path: 'guides/setup.mdx', viewed: false })).toEqual(['index.mdx']);

    await core!.close();
    c = start();
    expect(await c.reviews.viewed({ ...ids, revision: 2 })).toEqual(['index.mdx']);
    // another revision, or another review, starts with nothing viewed
    expect(await c.reviews.viewed({ ...ids, revision: 3 })).toEqual([]);
    expect(await c.reviews.viewed({ ...ids, reviewId: 'rev_other', revision: 2 })).toEqual([]);
  });

  it('refuses a path outside the project and changes nothing', async () => {
    const c = start();
    await expect(c.reviews.setViewed({ ...ids, revision: 1, path: '../secret.mdx', viewed: true })).rejects.toThrow(/repository path/);
    await expect(c.reviews.setViewed({ ...ids, revision: 0, path: 'index.mdx', viewed: true })).rejects.toThrow(/revision/);
    expect(await c.reviews.viewed({ ...ids, revision: 1 })).toEqual([]);
  });
});
