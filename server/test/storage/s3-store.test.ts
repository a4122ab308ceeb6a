import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3DeploymentStore } from '../../src/storage/s3-store';
import { startTestS3, type TestS3 } from './s3-server';

let s3: TestS3;
let store: S3DeploymentStore;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-s3-staging-'));

beforeAll(async () => {
  s3 = await startTestS3();
  store = new S3DeploymentStore(s3.settings);
});
afterAll(async () => {
  store.close();
  await s3.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Writes a staging directory with `files` (plus a symbolic link that must never be uploaded). */
function stage(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  fs.symlinkSync('/etc/passwd', path.join(dir, 'passwd.txt'));
  return dir;
}

describe('S3DeploymentStore (against s3rver)', () => {
  it('uploads a staged deployment, removes the staging directory and reads it back', async () => {
    const files: Record<string, string> = { 'manifest.json': '{}', 'index.html': '<h1>one</h1>' };
    for (let i = 0; i < 40; i++) files[`guides/page-${i}.html`] = `page ${i}`;
    const staging = stage('one', files);
    const dir = await store.publish('prj_a', 'bld_1', staging);
    expect(dir).toBe('deployments/prj_a/bld_1');
    expect(fs.existsSync(staging)).toBe(false);
    expect(s3.keys()).toContain('deployments/prj_a/bld_1/guides/page-39.html');
    expect(s3.keys()).not.toContain('deployments/prj_a/bld_1/passwd.txt');

    const opened = store.open(dir);
    expect([...(await opened.list())].sort()).toEqual(Object.keys(files).sort());
    const read = await opened.read('guides/page-7.html');
    expect(read.body.toString()).toBe('page 7');
    expect(read.modified.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('names the served deployment by one pointer per channel', async () => {
    const production = { projectId: 'prj_a', kind: 'production', previewName: '' } as const;
    const preview = { projectId: 'prj_a', kind: 'preview', previewName: 'feature-x' } as const;
    expect(await store.pointer(production)).toBeNull();
    await store.activate(production, 'deployments/prj_a/bld_1');
    await store.activate(preview, 'deployments/prj_a/bld_2');
    expect(await store.pointer(production)).toBe('deployments/prj_a/bld_1');
    expect(await store.pointer(preview)).toBe('deployments/prj_a/bld_2');
    expect(s3.keys()).toEqual(expect.arrayContaining(['pointers/prj_a/production.json', 'pointers/prj_a/preview/feature-x.json']));
  });

  it('prunes finished deployments not kept, leaves one without its manifest, and removes a project', async () => {
    await store.publish('prj_a', 'bld_2', stage('two', { 'manifest.json': '{}', 'index.html': 'two' }));
    await store.publish('prj_a', 'bld_3', stage('three', { 'index.html': 'being written' }));
    expect(await store.prune('prj_a', ['bld_2'])).toEqual(['bld_1']);
    const keys = s3.keys();
    expect(keys.some((k) => k.startsWith('deployments/prj_a/bld_1/'))).toBe(false);
    expect(keys).toContain('deployments/prj_a/bld_2/index.html');
    expect(keys).toContain('deployments/prj_a/bld_3/index.html');

    await store.removeProject('prj_a');
    expect(s3.keys().filter((k) => k.includes('prj_a'))).toEqual([]);
  });

  it('keeps a build log for every process to read, and removes it with its project', async () => {
    expect(await store.buildLog('prj_l', 'bld_9')).toBeNull();
    await store.saveBuildLog('prj_l', 'bld_9', '✓ deployed 3 pages\n');
    expect(await store.buildLog('prj_l', 'bld_9')).toBe('✓ deployed 3 pages\n');
    expect(s3.keys()).toContain('logs/prj_l/bld_9.log');
    await store.removeProject('prj_l');
    expect(await store.buildLog('prj_l', 'bld_9')).toBeNull();
  });

  it('refuses ids that would leave their prefix', async () => {
    await expect(store.publish('../x', 'bld_1', tmp)).rejects.toThrow(/Invalid id/);
  });
});
