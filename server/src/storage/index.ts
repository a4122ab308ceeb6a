import type { Config } from '../env';
import type { DeploymentStore } from './deployment-store';
import { LocalDeploymentStore } from './local-store';
import { S3DeploymentStore } from './s3-store';

export type { DeploymentChannel, DeploymentFiles, DeploymentStore, StoredFile } from './deployment-store';
export { channelName } from './deployment-store';

/**
 * The deployment store a configuration asks for (decisions.md section 1): the S3-compatible bucket
 * `QUIRE_S3_BUCKET` when set, else local disk under `QUIRE_DATA_DIR` (the embedded default, needing
 * nothing but the file system). Creating either contacts nothing; `check()` does.
 */
export function createDeploymentStore(config: Config): DeploymentStore {
  if (!config.s3Bucket) return new LocalDeploymentStore(config.dataDir);
  return new S3DeploymentStore({
    bucket: config.s3Bucket,
    endpoint: config.s3Endpoint,
    region: config.s3Region,
    accessKeyId: config.s3AccessKeyId,
    secretAccessKey: config.s3SecretAccessKey,
    forcePathStyle: config.s3ForcePathStyle,
  });
}
