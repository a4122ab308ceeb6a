/**
 * What a project's published site holds, read from its newest production deployment (the
 * Deployment row and the deployment's `manifest.json` in the deployment store): its pages, the
 * repository files it published and its redirects. `POST /lint` checks links against it
 * (decisions.md section 9); ownership lists its pages.
 */
import type { PageInventory } from '@quire/shared/docs/page-inventory';
import { pageInventory } from '@quire/shared/docs/page-inventory';
import type { AppContext } from '../context';
import { parseManifest, siteOwnedFiles, type DeploymentManifest } from '../deployments/manifest';

/** The newest production deployment of a project, with its build's commit. */
export interface ProductionSite {
  buildId: string;
  /** the commit the build deployed (null for builds that recorded none) */
  commitSha: string | null;
  /** its deployment directory or object prefix (`Deployment.dir`) */
  dir: string;
  manifest: DeploymentManifest;
}

/**
 * The newest production deployment of `projectId` (newest `createdAt`, ties by id), its build's
 * commit and its manifest; undefined when the project never deployed to production. The caller
 * checks access to the project first.
 * @throws Error when the deployment's manifest cannot be read (store unreachable, deployment pruned).
 */
export async function productionSite(ctx: AppContext, projectId: string): Promise<ProductionSite | undefined> {
  const row = await ctx.db.prisma.deployment.findFirst({
    where: { projectId, kind: 'production', previewName: '' },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { dir: true, buildId: true, build: { select: { commitSha: true } } },
  });
  if (!row) return undefined;
  const files = ctx.deploymentStore.open(row.dir);
  const manifest = parseManifest((await files.read('manifest.json')).body.toString('utf8'), `${row.dir}/manifest.json`);
  return { buildId: row.buildId, commitSha: row.build.commitSha, dir: row.dir, manifest };
}

/** What the linter learns of a published site: its page inventory and the `variables` its pages were built with. */
export interface DeployedLintFacts {
  inventory: PageInventory;
  /** docs.json `variables` of the deployed build (empty for deployments that recorded none) */
  variables: Record<string, string>;
}

/** Sites' lint facts kept per app; the oldest is dropped first. */
const MAX_INVENTORIES = 32;

/**
 * Lint facts by deployment directory (a deployment never changes once published), at most
 * {@link MAX_INVENTORIES}, the oldest stored dropped first. One per app (`ctx.deployedInventories`).
 */
export class DeployedInventories {
  private readonly byDir = new Map<string, DeployedLintFacts>();

  /** The facts stored for deployment directory `dir`, if any. */
  get(dir: string): DeployedLintFacts | undefined {
    return this.byDir.get(dir);
  }

  /** Stores the facts of deployment directory `dir`, dropping the oldest one when full. */
  set(dir: string, facts: DeployedLintFacts): void {
    if (this.byDir.size >= MAX_INVENTORIES) this.byDir.delete(this.byDir.keys().next().value!);
    this.byDir.set(dir, facts);
  }
}

/**
 * What the linter checks a page against on the project's published site (its newest production
 * deployment): the page inventory (the manifest's pages and redirects, and the deployment's files
 * that came from the repository: every listed file but `manifest.json` and those the builder
 * generated) and the site's variables. Undefined when the project has no production deployment or
 * it cannot be read (then the linter's navigation rules stay silent and `{{name}}` stays as written).
 * Remembered per deployment, so only the first lint after a deploy lists the deployment.
 */
export async function deployedLintFacts(ctx: AppContext, projectId: string): Promise<DeployedLintFacts | undefined> {
  try {
    const site = await productionSite(ctx, projectId);
    if (!site) return undefined;
    const known = ctx.deployedInventories.get(site.dir);
    if (known) return known;
    const generated = siteOwnedFiles(site.manifest);
    const listed = await ctx.deploymentStore.open(site.dir).list();
    const files = [...listed].filter((f) => f !== 'manifest.json' && !generated.has(f));
    const inventory = pageInventory({ pages: site.manifest.pages.map((p) => p.path), files, redirects: site.manifest.redirects });
    const facts = { inventory, variables: { ...(site.manifest.variables ?? {}) } };
    ctx.deployedInventories.set(site.dir, facts);
    return facts;
  } catch (err) {
    ctx.log.warn({ err, projectId }, 'the published site could not be read for link checks');
    return undefined;
  }
}
