/**
 * `DeploymentStore.writeFiles` (storage/*): a reindex's new index files added to a published
 * deployment, readable through `open(dir)` by every process, on local disk and in an S3 bucket;
 * names that would leave the deployment are refused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDeploymentStore } from '../../src/storage/local-store';
import { S3DeploymentStore } from '../../src/storage/s3-store';
import { startTestS3, type TestS3 } from '../storage/s3-server';

let s3: TestS3;
let dataDir: string;

beforeAll(async () => {
  s3 = await startTestS3();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-store-write-'));
});

afterAll(async () => {
  await s3?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const files = new Map([['_quire/search/reindex/idx_1/index.txt', Buffer.from('terms')], ['_quire/search/reindex/idx_1/records.json', Buffer.from('{}')]]);

describe('writeFiles', () => {
  it('adds files to a local deployment', async () => {
    const store = new LocalDeploymentStore(dataDir);
    const dir = 'sites/prj_a/bld_a';
    fs.mkdirSync(path.join(dataDir, dir), { recursive: true });
    fs.writeFileSync(path.join(dataDir, dir, 'manifest.json'), '{}');
    await store.writeFiles(dir, files);
    const opened = store.open(dir);
    expect([...(await opened.list())].sort()).toEqual(['_quire/search/reindex/idx_1/index.txt', '_quire/search/reindex/idx_1/records.json', 'manifest.json']);
    expect((await opened.read('_quire/search/reindex/idx_1/index.txt')).body.toString()).toBe('terms');
    await expect(store.writeFiles(dir, new Map([['../escape.txt', Buffer.from('x')]]))).rejects.toThrow();
    await expect(store.writeFiles('../outside', files)).rejects.toThrow();
    expect(fs.existsSync(path.join(dataDir, 'sites/prj_a/escape.txt'))).toBe(false);
  });

  it('adds objects to a deployment in a bucket', async () => {
    const store = new S3DeploymentStore(s3.settings);
    const dir = 'deployments/prj_a/bld_a';
    await store.writeFiles(dir, files);
    const opened = store.open(dir);
    expect([...(await opened.list())].sort()).toEqual(['_quire/search/reindex/idx_1/index.txt', '_quire/search/reindex/idx_1/records.json']);
    expect((await opened.read('_quire/search/reindex/idx_1/records.json')).body.toString()).toBe('{}');
    await expect(store.writeFiles(dir, new Map([['a/../../b', Buffer.from('x')]]))).rejects.toThrow();
    store.close();
  });
});
