/**
 * Which deployment a search (or a pages request) of a project reads, by documentation version
 * (interface-spec.md "Search": `version` restricts hits to that version's URL prefix; decisions.md
 * section 6: the default version at `/`, others under `/<label>/`):
 *
 * - no `version`, or the default version's label: the production channel's newest deployment;
 * - another label: the newest deployment of the channel `{kind: 'version', previewName: label}`
 *   (version builds deploy there), whose pages are served under `/<label>/`;
 * - a label that is neither: 404 `not_found`.
 *
 * The default version's label comes from the production deployment's manifest (`versions`, the
 * site's `versioning.versions` as built), by the one default-version rule (shared/src/docs/versions.ts:
 * the version marked `default`, else the first listed). It is read once per production deployment
 * and remembered on the context. A site without versions has none (hits carry `version: null`).
 */
import { ApiError } from '@quire/shared/errors';
import { defaultVersion } from '@quire/shared/docs/versions';
import type { AppContext } from '../context';
import { parseManifest } from '../deployments/manifest';
import type { DeploymentFiles } from '../storage/deployment-store';

/** The deployment a search reads. */
export interface SearchTarget {
  /** `Deployment.dir` */
  dir: string;
  files: DeploymentFiles;
  /** when the deployment went live (decides whether a reindex generation covers it) */
  createdAt: Date;
  /** the build's commit, when recorded */
  commitSha: string | null;
  /** the version label hits belong to; null on a site without versions when none was asked for */
  version: string | null;
  /** URL path prefix of the version's pages: `''` for the default version, `/<label>` for others */
  basePath: string;
}

/** The versions a production deployment was built with: the default's label and every label (null: the site declares none). */
interface BuiltVersions {
  defaultLabel: string | null;
  labels: string[] | null;
}

/** The versions of the production deployment `dir` (remembered per deployment). */
async function builtVersions(ctx: AppContext, dir: string): Promise<BuiltVersions> {
  const known = ctx.search.versions.get(dir);
  if (known !== undefined) return known;
  const manifest = parseManifest((await ctx.deploymentStore.open(dir).read('manifest.json')).body.toString('utf8'), `${dir}/manifest.json`);
  const versions = manifest.versions && manifest.versions.length > 0 ? manifest.versions : undefined;
  const built = { defaultLabel: defaultVersion(versions)?.label ?? null, labels: versions ? versions.map((v) => v.label) : null };
  ctx.search.versions.set(dir, built);
  return built;
}

type DeploymentRow = { dir: string; createdAt: Date; build: { commitSha: string | null } };

/** The newest deployment of a channel. */
function newestOf(ctx: AppContext, projectId: string, kind: 'production' | 'version', previewName: string): Promise<DeploymentRow | null> {
  return ctx.db.prisma.deployment.findFirst({
    where: { projectId, kind, previewName },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { dir: true, createdAt: true, build: { select: { commitSha: true } } },
  });
}

function targetOf(ctx: AppContext, row: DeploymentRow, version: string | null, basePath: string): SearchTarget {
  return { dir: row.dir, files: ctx.deploymentStore.open(row.dir), createdAt: row.createdAt, commitSha: row.build.commitSha, version, basePath };
}

/**
 * The deployment to search for `version` (see the module comment); null when the project has
 * nothing deployed for it yet (no production deployment).
 * @throws ApiError not_found for a label that is not one of the project's versions; Error when
 *   the production manifest cannot be read.
 */
export async function searchTarget(ctx: AppContext, projectId: string, version: string | undefined): Promise<SearchTarget | null> {
  const production = await newestOf(ctx, projectId, 'production', '');
  const built = production ? await builtVersions(ctx, production.dir) : { defaultLabel: null, labels: null };
  if (version === undefined || version === built.defaultLabel) return production ? targetOf(ctx, production, built.defaultLabel, '') : null;
  // a version channel counts while the production site still declares the label (one built before versions were recorded: always)
  const row = built.labels === null || built.labels.includes(version) ? await newestOf(ctx, projectId, 'version', version) : null;
  if (!row) throw unknownVersion(version);
  return targetOf(ctx, row, version, `/${encodeURIComponent(version)}`);
}

function unknownVersion(version: string): ApiError {
  return new ApiError('not_found', `No documentation version "${version}" in this project.`, { field: 'version', issue: 'is not a version of the project' });
}
