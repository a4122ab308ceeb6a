/**
 * The live deployments of a project's documentation versions (interface-spec.md "Versioning >
 * Documentation versions"): the default version is the production deployment, every other one the
 * newest deployment of its `version` channel (versions/version-builds.ts). The versions are those the
 * live production site was built with (its manifest's `versions`).
 */
import { defaultVersion, type DocVersion } from '@quire/shared/docs/versions';
import type { AppContext } from '../context';
import { productionSite } from '../services/deployed-site';
import { parseManifest, type DeploymentManifest } from '../deployments/manifest';
import type { DeploymentFiles } from '../storage/deployment-store';

/** One version's live deployment. */
export interface VersionDeployment {
  version: DocVersion;
  /** whether it is the default version (served at the site root) */
  isDefault: boolean;
  files: DeploymentFiles;
  manifest: DeploymentManifest;
}

/** Why a version's deployment could not be given. */
export type VersionDeploymentMissing = 'no_production' | 'unknown_label' | 'not_deployed';

/**
 * The live deployment of version `label` of a project; the reason when there is none: the project
 * has no production deployment, `label` is not one of its versions, or that version has no
 * deployment yet (its build is queued, or failed). The caller checks access to the project first.
 * A site without `versioning` has no version labels.
 * @throws Error when a manifest cannot be read (store unreachable, deployment pruned meanwhile).
 */
export async function versionDeployment(ctx: AppContext, projectId: string, label: string): Promise<VersionDeployment | VersionDeploymentMissing> {
  const production = await productionSite(ctx, projectId);
  if (!production) return 'no_production';
  const versions = production.manifest.versions ?? [];
  const version = versions.find((v) => v.label === label);
  if (!version) return 'unknown_label';
  if (version === defaultVersion(versions)) {
    return { version, isDefault: true, files: ctx.deploymentStore.open(production.dir), manifest: production.manifest };
  }
  const store = ctx.deploymentStore;
  let dir = store.hasPointers ? await store.pointer({ projectId, kind: 'version', previewName: label }) : null;
  if (dir === null) {
    const row = await ctx.db.prisma.deployment.findFirst({
      where: { projectId, kind: 'version', previewName: label },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { dir: true },
    });
    if (!row) return 'not_deployed';
    dir = row.dir;
  }
  const files = store.open(dir);
  const manifest = parseManifest((await files.read('manifest.json')).body.toString('utf8'), `${dir}/manifest.json`);
  return { version, isDefault: false, files, manifest };
}
