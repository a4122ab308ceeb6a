/**
 * What a documentation version build (a Build with `version` set; versions/version-builds.ts queues
 * them) needs before the builder runs (interface-spec.md "Versioning > Documentation versions"
 * rules 2-4): the version as the LIVE production site declares it (the default branch's
 * `versioning`, which every version renders with), the ref it resolves to, its base path and URL,
 * and whether its live deployment must be rebuilt even at the same commit (the versions changed,
 * so its switcher did).
 */
import fs from 'node:fs';
import { nonDefaultVersions, type DocVersion } from '@quire/shared/docs/versions';
import type { SiteConfig } from '@quire/shared/docs/types';
import type { AppContext } from '../context';
import { BuildError } from '../builder/errors';
import { productionSite } from '../services/deployed-site';
import { parseManifest } from '../deployments/manifest';
import { resolveVersionRef, type ResolvedVersionRef } from './version-refs';

/** The inputs of one version build. */
export interface VersionBuildPlan {
  version: DocVersion;
  /** the ref found (`refs/tags/v1`) and its commit */
  ref: ResolvedVersionRef;
  /** `/<label>` */
  basePath: string;
  /** the default branch's versioning, as the live production site was built with it */
  versioning: NonNullable<SiteConfig['versioning']>;
  /** the version's site: `<production url>/<label>/` */
  url: string;
  /** rebuild even when the ref's commit is the one the version's live deployment was built from */
  force: boolean;
}

/** The URL a version is served at: the production site's URL with `/<label>/` (rule 3). */
export function versionSiteUrl(productionUrl: string, label: string): string {
  return `${productionUrl.replace(/\/+$/, '')}/${encodeURIComponent(label)}/`;
}

/**
 * Plans the build of version `label` of a project.
 * @param live the version channel's live deployment (its `Deployment.dir`), when it has one
 * @throws BuildError when the live production site no longer lists `label` as a non-default version
 *   (or the project has no production deployment), or when no ref of the version exists
 *   (see `resolveVersionRef`); the message says which.
 */
export async function planVersionBuild(
  ctx: AppContext,
  input: { projectId: string; label: string; repoUrl: string; productionUrl: string; live?: string; signal?: AbortSignal },
): Promise<VersionBuildPlan> {
  const production = await productionSite(ctx, input.projectId);
  const versions = production?.manifest.versions ?? [];
  const version = nonDefaultVersions(versions).find((v) => v.label === input.label);
  if (!production || !version) {
    throw new BuildError(`Version "${input.label}" is no longer a non-default version in versioning.versions of the live production site; it was not built.`);
  }
  fs.mkdirSync(ctx.config.dataDir, { recursive: true });
  const ref = await resolveVersionRef(version, { repoUrl: input.repoUrl, cwd: ctx.config.dataDir, policy: ctx.config }, input.signal);
  const force = input.live !== undefined && !(await sameVersions(ctx, input.live, versions));
  return {
    version,
    ref,
    basePath: `/${version.label}`,
    versioning: { versions },
    url: versionSiteUrl(input.productionUrl, version.label),
    force,
  };
}

/** Whether the deployment at `dir` was built with exactly `versions` (an unreadable one was not). */
async function sameVersions(ctx: AppContext, dir: string, versions: DocVersion[]): Promise<boolean> {
  try {
    const files = ctx.deploymentStore.open(dir);
    const manifest = parseManifest((await files.read('manifest.json')).body.toString('utf8'), `${dir}/manifest.json`);
    return JSON.stringify(manifest.versions ?? []) === JSON.stringify(versions);
  } catch {
    return false;
  }
}
