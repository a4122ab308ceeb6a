/**
 * The version diff (interface-spec.md "Version comparison"; "Versioning > Documentation versions"
 * rule 8): the page inventories of two versions' live deployments compared by path and content
 * hash (the manifest's per-page SHA-256 of the page's `.md`).
 */
import { createHash } from 'node:crypto';
import { ApiError } from '@quire/shared/errors';
import type { VersionDiff, VersionDiffPage } from '@quire/shared/api/versions';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { getProjectForCaller } from '../services/projects';
import type { DeploymentManifest } from '../deployments/manifest';
import { versionDeployment, type VersionDeployment } from './version-deployments';

type ManifestPage = DeploymentManifest['pages'][number];

/**
 * Compares version `from` with version `to` of a project: pages added (in `to` only), removed (in
 * `from` only), changed (in both, with different Markdown) and the count of unchanged ones, each list
 * sorted by path. Every page counts, gated and hidden ones
 * included (the caller reads the project through the API).
 * @throws ApiError not_found when the project is not the caller's, when a label is not one of the
 *   live production site's versions, or when that version has no deployment yet (the message says which).
 */
export async function diffVersions(ctx: AppContext, auth: RequestAuth, projectId: string, from: string, to: string): Promise<VersionDiff> {
  await getProjectForCaller(ctx, auth, projectId);
  const [a, b] = await Promise.all([deploymentOf(ctx, projectId, from), deploymentOf(ctx, projectId, to)]);
  const before = new Map(a.manifest.pages.map((p) => [p.path, p]));
  const after = new Set(b.manifest.pages.map((p) => p.path));
  const added: VersionDiffPage[] = [];
  const changed: VersionDiffPage[] = [];
  let unchangedCount = 0;
  for (const page of b.manifest.pages) {
    const old = before.get(page.path);
    if (!old) added.push(entry(page));
    else if ((await hashOf(a, old)) !== (await hashOf(b, page))) changed.push(entry(page));
    else unchangedCount++;
  }
  const removed = a.manifest.pages.filter((p) => !after.has(p.path)).map(entry);
  return { from, to, added: byPath(added), removed: byPath(removed), changed: byPath(changed), unchangedCount };
}

/** The live deployment of a label, or the 404 saying why there is none. */
async function deploymentOf(ctx: AppContext, projectId: string, label: string): Promise<VersionDeployment> {
  const found = await versionDeployment(ctx, projectId, label);
  if (found === 'no_production') throw new ApiError('not_found', `Version "${label}" not found: the project has no production deployment yet.`);
  if (found === 'unknown_label') throw new ApiError('not_found', `Version "${label}" not found: it is not in versioning.versions of the live production site.`);
  if (found === 'not_deployed') throw new ApiError('not_found', `Version "${label}" has no deployment yet: its build is queued or failed (see GET /v1/projects/${projectId}/builds).`);
  return found;
}

const entry = (p: ManifestPage): VersionDiffPage => ({ path: p.path, title: p.title?.trim() || p.path });
const byPath = (list: VersionDiffPage[]) => list.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));

/** A page's content hash: the manifest's, else the SHA-256 of its `.md` file (older manifests); '' when unreadable. */
async function hashOf(d: VersionDeployment, page: ManifestPage): Promise<string> {
  if (page.hash) return page.hash;
  try {
    return createHash('sha256').update((await d.files.read(`${page.path}.md`)).body).digest('hex');
  } catch {
    return '';
  }
}
