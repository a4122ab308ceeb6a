import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PREVIEW_INFO_FILE, type PreviewChanges, type PreviewInfo, type PreviewKind, type PreviewPage } from '@quire/shared/site/preview-banner';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import { parseManifest, type DeploymentManifest } from './manifest';
import type { DeploymentFiles } from '../storage/deployment-store';
import { localDeploymentFiles } from '../storage/local-store';

export type { PreviewChanges } from '@quire/shared/site/preview-banner';

/** What {@link writePreviewInfo} needs to know about a preview build. */
export interface PreviewInfoInput {
  projectId: string;
  /** the build's staging directory (`RunBuildResult.outDir`), holding its `manifest.json` */
  stagingDir: string;
  kind: PreviewKind;
  /** see `PreviewInfo.label`: `feature/login`, `#12 Add login docs`, `Fix the intro` (a review's title) */
  label: string;
  branch: string;
  pullRequest?: number;
  /** the project's production site URL (`projectSiteUrl`) */
  productionUrl: string;
}

/** `.md` files read at once while comparing pages (S3 reads are network round trips). */
const READ_CONCURRENCY = 16;

/**
 * Compares a preview build's output (its `manifest.json` in `stagingDir`) with the production
 * deployment now live and writes `_quire/preview.json` (`PreviewInfo`,
 * shared/src/site/preview-banner.ts) into `stagingDir`, which site hosting turns into the preview
 * banner; the file is added to the manifest's `generated` list (when the manifest has one).
 * Call it after the build and before publishing, for preview builds only.
 *
 * - Production is what `ctx.deploymentStore` serves: the production pointer when the store has
 *   pointers, else (or without one) the newest production Deployment row. None: every page is
 *   "added".
 * - A page is added when production has no page at its path, removed when the preview has none,
 *   changed when its Markdown differs: the manifests' per-page `hash` (SHA-256 of the page's `.md`)
 *   when both sides have it, else the two `.md` files are hashed here (a side without its `.md`
 *   counts as changed).
 * - Gated pages (`audience`) are left out: the banner shows on pages anyone can read, so it never
 *   names a gated page of the preview (added, changed) or of production (removed).
 * - Lists keep manifest (navigation) order; titles fall back to the path.
 * Calling it again on the same directory writes the same file.
 * @returns the changes written
 * @throws Error when the staging manifest or the production deployment cannot be read, or the
 *   file cannot be written (the caller may publish without it: the banner then names only the
 *   preview channel).
 */
export async function writePreviewInfo(ctx: AppContext, input: PreviewInfoInput): Promise<PreviewChanges> {
  const stagingFiles = localDeploymentFiles(input.stagingDir);
  const manifestText = await fs.readFile(path.join(input.stagingDir, 'manifest.json'), 'utf8');
  const preview = { files: stagingFiles, manifest: parseManifest(manifestText, `${input.stagingDir}/manifest.json`) };
  const production = await liveProduction(ctx, input.projectId);
  const changes = await comparePages(preview, production);
  const info: PreviewInfo = {
    kind: input.kind,
    label: input.label,
    branch: input.branch,
    ...(input.pullRequest !== undefined ? { pullRequest: input.pullRequest } : {}),
    productionUrl: input.productionUrl,
    changes,
  };
  await fs.mkdir(path.join(input.stagingDir, path.dirname(PREVIEW_INFO_FILE)), { recursive: true });
  await replaceFile(path.join(input.stagingDir, PREVIEW_INFO_FILE), JSON.stringify(info));
  await listAsGenerated(input.stagingDir, manifestText);
  return changes;
}

/**
 * How a preview build's banner names it (the `kind`, `label`, `branch` and `pullRequest` of
 * {@link writePreviewInfo}): a review's preview (`reviewId`) by the review's title (a review
 * deleted meanwhile as `…` and the last 6 characters of its id: readers never see a raw `rev_` id),
 * a pull request's (`pullRequest`, from webhooks) as `#<n> <title>`, any other as its branch.
 */
export async function previewIdentityOf(
  ctx: Pick<AppContext, 'db'>,
  build: Pick<Models.BuildModel, 'branch' | 'reviewId' | 'pullRequest' | 'pullRequestTitle'>,
): Promise<Pick<PreviewInfoInput, 'kind' | 'label' | 'branch' | 'pullRequest'>> {
  if (build.reviewId) {
    const review = await ctx.db.prisma.review.findUnique({ where: { id: build.reviewId }, select: { title: true } });
    return { kind: 'review', label: review?.title.trim() || `…${build.reviewId.slice(-6)}`, branch: build.branch };
  }
  if (build.pullRequest !== null) {
    const title = build.pullRequestTitle?.trim();
    return { kind: 'pull_request', label: `#${build.pullRequest}${title ? ` ${title}` : ''}`, branch: build.branch, pullRequest: build.pullRequest };
  }
  return { kind: 'branch', label: build.branch, branch: build.branch };
}

/** A deployment's files and manifest. */
interface Side {
  files: DeploymentFiles;
  manifest: DeploymentManifest;
}

/** The production deployment the store serves now, or undefined when the project has none. */
async function liveProduction(ctx: AppContext, projectId: string): Promise<Side | undefined> {
  const store = ctx.deploymentStore;
  let dir = store.hasPointers ? await store.pointer({ projectId, kind: 'production', previewName: '' }) : null;
  if (dir === null) {
    const row = await ctx.db.prisma.deployment.findFirst({
      where: { projectId, kind: 'production' },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { dir: true },
    });
    if (!row) return undefined;
    dir = row.dir;
  }
  const files = store.open(dir);
  const manifest = parseManifest((await files.read('manifest.json')).body.toString('utf8'), `${files.key}/manifest.json`);
  return { files, manifest };
}

type ManifestPage = DeploymentManifest['pages'][number];

const isGated = (p: ManifestPage) => (p.audience?.length ?? 0) > 0;
const entry = (p: ManifestPage): PreviewPage => ({ path: p.path, title: p.title?.trim() || p.path });

/** Added, changed and removed pages of `preview` against `production` (see {@link writePreviewInfo}). */
async function comparePages(preview: Side, production: Side | undefined): Promise<PreviewChanges> {
  const previewPages = preview.manifest.pages.filter((p) => !isGated(p));
  if (!production) return { added: previewPages.map(entry), changed: [], removed: [] };
  const before = new Map(production.manifest.pages.map((p) => [p.path, p]));
  const after = new Set(preview.manifest.pages.map((p) => p.path));
  const added: PreviewPage[] = [];
  const common: Array<[ManifestPage, ManifestPage]> = [];
  for (const p of previewPages) {
    const old = before.get(p.path);
    if (old) common.push([p, old]);
    else added.push(entry(p));
  }
  const [previewList, productionList] = await Promise.all([preview.files.list(), production.files.list()]);
  const differs = new Array<boolean>(common.length).fill(false);
  await eachBounded(common.length, READ_CONCURRENCY, async (i) => {
    const [p, old] = common[i]!;
    if (p.hash !== undefined && old.hash !== undefined) differs[i] = p.hash !== old.hash;
    else {
      const [a, b] = await Promise.all([markdownHash(preview.files, previewList, p.path), markdownHash(production.files, productionList, old.path)]);
      differs[i] = a === undefined || b === undefined || a !== b;
    }
  });
  const changed = common.filter((_, i) => differs[i]).map(([p]) => entry(p));
  const removed = production.manifest.pages.filter((p) => !after.has(p.path) && !isGated(p)).map(entry);
  return { added, changed, removed };
}

/** SHA-256 (hex) of a page's `.md` file; undefined when the deployment does not list it. */
async function markdownHash(files: DeploymentFiles, listed: Set<string>, pagePath: string): Promise<string | undefined> {
  const file = `${pagePath}.md`;
  if (!listed.has(file)) return undefined;
  return crypto.createHash('sha256').update((await files.read(file)).body).digest('hex');
}

/** Runs `fn(0..count-1)` with at most `limit` calls in flight. */
async function eachBounded(count: number, limit: number, fn: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await fn(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/**
 * Adds {@link PREVIEW_INFO_FILE} to the manifest's `generated` list (the site's own files), keeping
 * every other field as the builder wrote it.
 */
async function listAsGenerated(stagingDir: string, manifestText: string): Promise<void> {
  const raw = JSON.parse(manifestText) as { generated?: unknown };
  if (!Array.isArray(raw.generated) || raw.generated.includes(PREVIEW_INFO_FILE)) return;
  raw.generated.push(PREVIEW_INFO_FILE);
  await replaceFile(path.join(stagingDir, 'manifest.json'), JSON.stringify(raw, null, 2));
}

/**
 * Writes a file of the staging directory as a new file renamed over the old one, never changing
 * the old one in place: an incremental build shares unchanged files with the previous deployment
 * as hard links (builder/output-files.ts), and a deployment directory with a manifest counts as
 * complete, so the manifest must never be seen half written.
 */
async function replaceFile(target: string, content: string): Promise<void> {
  const temp = `${target}.${process.pid}.tmp`;
  await fs.writeFile(temp, content);
  await fs.rename(temp, target);
}
