import fs from 'node:fs';
import path from 'node:path';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import { PATH_ID_RE } from '../data-paths';
import { listSiteFiles } from './site-files';
import { VERSION_LABEL_PATTERN } from '@quire/shared/docs/versions';
import { channelName, type DeploymentChannel, type DeploymentFiles, type DeploymentStore, type StoredFile } from './deployment-store';

/** Connection settings of an S3-compatible bucket (`QUIRE_S3_*`, README "Configuration"). */
export interface S3Settings {
  bucket: string;
  /** endpoint URL of a non-AWS service (MinIO, R2, s3rver...); AWS when omitted */
  endpoint?: string | undefined;
  region: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** `bucket` in the path instead of the host name (MinIO and most self-hosted services need it) */
  forcePathStyle: boolean;
}

/** Uploads (and deletions) in flight at once per publish. */
export const S3_CONCURRENCY = 16;
/** Keys one DeleteObjects request may carry (the S3 API limit). */
const DELETE_BATCH = 1000;

/** Pointer object body: which deployment a channel serves. */
interface Pointer {
  dir: string;
  buildId: string;
  activatedAt: string;
}

/**
 * Deployments in an S3-compatible bucket. Layout: `deployments/<projectId>/<buildId>/<file>` for a
 * deployment's files and `pointers/<projectId>/production.json` / `pointers/<projectId>/preview/<name>.json`
 * for what each channel serves (`{"dir","buildId","activatedAt"}`), written after its files, so a
 * deployment goes live by that one write. Checksums are sent only where the S3 API requires them
 * (`requestChecksumCalculation: WHEN_REQUIRED`), which every S3-compatible service accepts.
 */
export class S3DeploymentStore implements DeploymentStore {
  readonly kind = 's3';
  readonly hasPointers = true;
  readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async publish(projectId: string, buildId: string, stagingDir: string): Promise<string> {
    const dir = deploymentPrefix(projectId, buildId);
    const files = [...(await listSiteFiles(stagingDir))];
    const rest = files.filter((f) => f !== 'manifest.json');
    try {
      await eachBounded(rest, S3_CONCURRENCY, (file) => this.upload(`${dir}/${file}`, path.join(stagingDir, ...file.split('/'))));
      // the manifest last: a deployment whose listing holds it is complete (prune relies on it)
      if (files.includes('manifest.json')) await this.upload(`${dir}/manifest.json`, path.join(stagingDir, 'manifest.json'));
    } catch (err) {
      await this.remove(dir).catch(() => undefined);
      throw err;
    }
    fs.rmSync(stagingDir, { recursive: true, force: true });
    return dir;
  }

  async activate(channel: DeploymentChannel, dir: string): Promise<void> {
    const pointer: Pointer = { dir, buildId: dir.split('/').pop()!, activatedAt: new Date().toISOString() };
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: pointerKey(channel),
        Body: JSON.stringify(pointer),
        ContentType: 'application/json',
      }),
    );
  }

  async pointer(channel: DeploymentChannel): Promise<string | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: pointerKey(channel) }));
      const parsed = JSON.parse((await out.Body?.transformToString('utf8')) ?? '') as Partial<Pointer>;
      return typeof parsed.dir === 'string' ? parsed.dir : null;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async deactivate(channel: DeploymentChannel): Promise<void> {
    // DeleteObject of a missing key succeeds on S3 and on every compatible service.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: pointerKey(channel) }));
  }

  open(dir: string): DeploymentFiles {
    const prefix = `${dir}/`;
    return {
      key: `s3://${this.bucket}/${dir}`,
      list: async () => new Set((await this.keys(prefix)).map((k) => k.slice(prefix.length)).filter((f) => f !== '')),
      read: async (file: string): Promise<StoredFile> => {
        const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: prefix + file }));
        if (!out.Body) throw new Error(`s3://${this.bucket}/${prefix}${file}: empty response`);
        return { body: Buffer.from(await out.Body.transformToByteArray()), modified: out.LastModified ?? new Date(0) };
      },
    };
  }

  async writeFiles(dir: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
    await eachBounded([...files], S3_CONCURRENCY, async ([file, body]) => {
      if (file.split('/').some((s) => s === '' || s === '.' || s === '..')) throw new Error(`Not a file of the deployment: ${file}`);
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: `${dir}/${file}`, Body: body }));
    });
  }

  async prune(projectId: string, keepBuildIds: string[]): Promise<string[]> {
    const keep = new Set(keepBuildIds);
    const removed: string[] = [];
    for (const buildId of await this.buildIds(projectId)) {
      if (keep.has(buildId)) continue;
      const dir = deploymentPrefix(projectId, buildId);
      if (!(await this.exists(`${dir}/manifest.json`))) continue;
      await this.remove(dir);
      removed.push(buildId);
    }
    return removed;
  }

  async remove(dir: string): Promise<void> {
    await this.deleteKeys(await this.keys(`${dir}/`));
  }

  async removeProject(projectId: string): Promise<void> {
    checkId(projectId);
    await this.deleteKeys([...(await this.keys(`deployments/${projectId}/`)), ...(await this.keys(`pointers/${projectId}/`)), ...(await this.keys(`logs/${projectId}/`))]);
  }

  async saveBuildLog(projectId: string, buildId: string, text: string): Promise<void> {
    checkId(projectId);
    checkId(buildId);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: `logs/${projectId}/${buildId}.log`, Body: text, ContentType: 'text/plain; charset=utf-8' }));
  }

  async buildLog(projectId: string, buildId: string): Promise<string | null> {
    checkId(projectId);
    checkId(buildId);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: `logs/${projectId}/${buildId}.log` }));
      return (await out.Body?.transformToString('utf8')) ?? '';
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
  }

  private async upload(key: string, file: string): Promise<void> {
    const body = await fs.promises.readFile(file);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body }));
  }

  private async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  /** Every key under a prefix (ListObjectsV2, all pages). */
  private async keys(prefix: string): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page: ListObjectsV2CommandOutput = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
      );
      for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  /** The build ids that have objects under `deployments/<projectId>/`. */
  private async buildIds(projectId: string): Promise<string[]> {
    checkId(projectId);
    const prefix = `deployments/${projectId}/`;
    const ids = new Set<string>();
    let token: string | undefined;
    do {
      const page: ListObjectsV2CommandOutput = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, Delimiter: '/', ...(token ? { ContinuationToken: token } : {}) }),
      );
      for (const p of page.CommonPrefixes ?? []) if (p.Prefix) ids.add(p.Prefix.slice(prefix.length).replace(/\/$/, ''));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return [...ids];
  }

  private async deleteKeys(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const out = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      if (out.Errors && out.Errors.length > 0) {
        throw new Error(`Deleting ${out.Errors.length} objects from s3://${this.bucket} failed: ${out.Errors[0]?.Key}: ${out.Errors[0]?.Message}`);
      }
    }
  }
}

function checkId(id: string): void {
  if (!PATH_ID_RE.test(id)) throw new Error(`Invalid id for a storage key: ${JSON.stringify(id)}`);
}

/** `deployments/<projectId>/<buildId>` (ids checked). */
function deploymentPrefix(projectId: string, buildId: string): string {
  checkId(projectId);
  checkId(buildId);
  return `deployments/${projectId}/${buildId}`;
}

/** `pointers/<projectId>/production.json`, `pointers/<projectId>/preview/<name>.json` or `pointers/<projectId>/version/<label>.json`. */
function pointerKey(channel: DeploymentChannel): string {
  checkId(channel.projectId);
  if (channel.kind === 'preview') checkId(channel.previewName);
  if (channel.kind === 'version' && !VERSION_LABEL_PATTERN.test(channel.previewName)) throw new Error(`Invalid version label for a storage key: ${JSON.stringify(channel.previewName)}`);
  return `pointers/${channel.projectId}/${channelName(channel)}.json`;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** Runs `fn` over `items` with at most `limit` calls in flight; rejects with the first failure. */
async function eachBounded<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
