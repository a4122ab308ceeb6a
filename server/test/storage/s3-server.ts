import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import type { S3Settings } from '../../src/storage/s3-store';

/** A running S3-compatible server for one test file (s3rver from npm, on a random port, in a temp dir). */
export interface TestS3 {
  /** settings for `S3DeploymentStore` (path style, fixed test credentials) */
  settings: S3Settings;
  /** the same as `QUIRE_S3_*` environment variables, for `loadConfig` */
  env: Record<string, string>;
  /** every object key in the bucket, sorted (read from the server's own directory, not through the SDK) */
  keys(): string[];
  stop(): Promise<void>;
}

/**
 * Starts `@20minutes/s3rver` (a maintained fork of s3rver: a real HTTP S3 API backed by a
 * directory) on 127.0.0.1 with a random port and one bucket. Stop it after the tests.
 */
export async function startTestS3(bucket = 'quire-test'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-s3-'));
  // allowMismatchedSignatures: s3rver signs bucket-level requests (ListObjectsV2, DeleteObjects) as
  // `/<bucket>` where the current SDK signs `/<bucket>/`; every other check stays on.
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
    allowMismatchedSignatures: true,
  });
  const address = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  const settings: S3Settings = { bucket, endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
  return {
    settings,
    env: {
      QUIRE_S3_ENDPOINT: endpoint,
      QUIRE_S3_BUCKET: bucket,
      QUIRE_S3_REGION: 'us-east-1',
      QUIRE_S3_ACCESS_KEY_ID: 'S3RVER',
      QUIRE_S3_SECRET_ACCESS_KEY: 'S3RVER',
      QUIRE_S3_FORCE_PATH_STYLE: '1',
    },
    keys() {
      const root = path.join(directory, bucket);
      const out: string[] = [];
      const walk = (dir: string, prefix: string) => {
        for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
          const rel = prefix ? `${prefix}/${e.name}` : e.name;
          if (e.isDirectory()) walk(path.join(dir, e.name), rel);
          else if (e.name.endsWith('._S3rver_object')) out.push(rel.slice(0, -'._S3rver_object'.length));
        }
      };
      if (fs.existsSync(root)) walk(root, '');
      return out.sort();
    },
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
