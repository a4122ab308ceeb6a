import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3DeploymentStore } from '../../src/storage/s3-store';
import { channelName } from '../../src/storage/deployment-store';
import { startTestS3, type TestS3 } from '../storage/s3-server';

let s3: TestS3;
let store: S3DeploymentStore;

beforeAll(async () => {
  s3 = await startTestS3();
  store = new S3DeploymentStore(s3.settings);
});
afterAll(async () => {
  store.close();
  await s3.stop();
});

describe('documentation version channels in the S3 store', () => {
  it('keeps one pointer per version label, apart from a preview of the same name, and takes it down', async () => {
    const version = { projectId: 'prj_v', kind: 'version', previewName: 'v1.2' } as const;
    const preview = { projectId: 'prj_v', kind: 'preview', previewName: 'v1' } as const;
    expect(channelName(version)).toBe('version/v1.2');
    await store.activate(version, 'deployments/prj_v/bld_1');
    await store.activate(preview, 'deployments/prj_v/bld_2');
    expect(await store.pointer(version)).toBe('deployments/prj_v/bld_1');
    expect(s3.keys()).toEqual(expect.arrayContaining(['pointers/prj_v/version/v1.2.json', 'pointers/prj_v/preview/v1.json']));
    await store.deactivate(version);
    expect(await store.pointer(version)).toBeNull();
    expect(await store.pointer(preview)).toBe('deployments/prj_v/bld_2');
  });

  it('refuses a label that is not a version label', async () => {
    await expect(store.activate({ projectId: 'prj_v', kind: 'version', previewName: '../x' }, 'deployments/prj_v/bld_1')).rejects.toThrow(/Invalid version label/);
  });
});
