import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/env';
import { createDeploymentStore } from '../../src/storage/index';

describe('deployment store from the configuration', () => {
  it('keeps deployments on local disk unless QUIRE_S3_BUCKET is set', () => {
    const local = createDeploymentStore(loadConfig({ QUIRE_DATA_DIR: '/tmp/q' }));
    expect(local.kind).toBe('local');
    const s3 = createDeploymentStore(
      loadConfig({ QUIRE_DATA_DIR: '/tmp/q', QUIRE_S3_BUCKET: 'docs', QUIRE_S3_ENDPOINT: 'http://127.0.0.1:9000', QUIRE_S3_FORCE_PATH_STYLE: '1' }),
    );
    expect(s3.kind).toBe('s3');
    expect(s3.hasPointers).toBe(true);
    s3.close();
  });

  it('refuses S3 settings that cannot work, naming the variable', () => {
    expect(() => loadConfig({ QUIRE_S3_ENDPOINT: 'http://minio:9000' })).toThrow(ConfigError);
    expect(() => loadConfig({ QUIRE_S3_ENDPOINT: 'http://minio:9000' })).toThrow(/QUIRE_S3_BUCKET/);
    expect(() => loadConfig({ QUIRE_S3_BUCKET: 'docs', QUIRE_S3_ACCESS_KEY_ID: 'k' })).toThrow(/QUIRE_S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ QUIRE_S3_BUCKET: 'docs', QUIRE_S3_ENDPOINT: 'not a url' })).toThrow(/QUIRE_S3_ENDPOINT/);
  });
});
