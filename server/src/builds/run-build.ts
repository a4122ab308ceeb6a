/**
 * Running one claimed build to its outcome (decisions.md sections 1 and 4): the builder checks out
 * and renders the site (builder/pipeline.ts), the output is published, a production or version
 * build passes its approval gates (deploy-gates.ts), and the build is deployed
 * (deployments/deploy.ts) or ends `failed`/`cancelled`/requeued. Every line of its progress goes
 * to `<dataDir>/logs/<buildId>.log`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { BuildError } from '../builder/errors';
import { buildLimitsFrom } from '../builder/build-limits';
import type { RunBuildInput, RunBuildResult } from '../builder/pipeline';
import { parseStringList } from '../db/json-columns';
import { lastChangedAt } from '../git/repo-reader';
import type { BuildOutcome } from '../ops/metrics';
import { closeApprovalOfBuild } from '../services/approvals';
import { saveLintReport } from '../services/lint-results';
import { projectSiteUrl } from '../services/projects';
import { previewOverlay } from '../services/change-set-previews';
import { lintOptionsOf } from '../services/style-rules';
import { completeAfterDeploy, queueVersionsLogged } from '../deployments/after-deploy';
import { deployBuild } from '../deployments/deploy';
import { previewChannelOf } from '../deployments/preview-channel';
import { previewIdentityOf, writePreviewInfo } from '../deployments/preview-changes';
import { publishDeployment } from '../deployments/publish';
import { previewSiteUrl } from '../deployments/site-host';
import { planVersionBuild, type VersionBuildPlan } from '../versions/version-build';
import { BuildLog, readBuildLog } from './build-log';
import { setBuildStatus, settleAborted, SHUTDOWN, type BuildRow } from './build-status';
import { passDeployGates } from './deploy-gates';

/** The builder: the real pipeline (builder/pipeline.ts `runBuild`), or a stand-in in tests. */
export type Builder = (input: RunBuildInput) => Promise<RunBuildResult>;

/**
 * Runs build `build` (already claimed: `building` since `startedAt`) to its outcome: `deployed`
 * (or left waiting for approval), `failed` with the builder's message (`BuildError`, safe to show)
 * or a generic one (the previous deployment keeps serving), or, when `signal` aborts, `cancelled`
 * or back to `queued` (abort reason `shutdown`). Counts the outcome in the build metric and, with
 * the S3 store, copies the log to the store. Never throws for a failing build; database errors
 * while recording an outcome are thrown.
 */
export async function runClaimedBuild(ctx: AppContext, build: BuildRow, startedAt: Date, signal: AbortSignal, builder: Builder): Promise<void> {
  const { config, db } = ctx;
  let outcome: BuildOutcome | undefined;
  const log = new BuildLog(config.dataDir, build.id);
  const project = await db.prisma.project.findUnique({ where: { id: build.projectId } });
  try {
    if (!project) return;
    const production = projectSiteUrl(config, project.slug);
    // A version build's channel is its label (versions/version-builds.ts); a preview's its preview name.
    const previewName = build.version ?? previewChannelOf(build, project.slug);
    let url = build.isPreview ? previewSiteUrl(production, previewName) : production;
    log.line(`build ${build.id} of ${project.slug}: ${build.version ? `version ${build.version}` : build.isPreview ? 'preview' : 'production'} from ${build.branch}${build.commitSha ? ` @ ${build.commitSha}` : ''} (trigger: ${build.trigger}), started ${startedAt.toISOString()}`);
    if (!project.repoUrl) throw new BuildError('The project has no repoUrl: set one with PATCH /v1/projects/{projectId}.');
    const repoUrl = project.repoUrl;
    const previous = await liveDeploymentOf(ctx, project.id, build.version ? 'version' : build.isPreview ? 'preview' : 'production', previewName);
    const version = build.version ? await planVersion(ctx, build, { id: project.id, repoUrl }, production, log, signal) : undefined;
    if (version) url = version.url;
    // A push's list describes `changedSince..commitSha`: it stands for the change only from a deployment of `changedSince`.
    const changedFiles = build.changedFiles && previous && build.changedSince === previous.commitSha ? parseStringList(build.changedFiles) : null;
    const result = await builder({
      projectId: project.id,
      buildId: build.id,
      repoUrl,
      branch: version ? version.ref.ref : build.branch,
      ...(build.commitSha ? { commitSha: build.commitSha } : {}),
      allowFileRepos: config.allowFileRepos,
      allowPrivateNetwork: config.allowPrivateNetwork,
      stateMemory: ctx.buildStates,
      // "Last updated" dates from each page file's git history (the build's own checkout is shallow)
      lastChanged: (commitSha, paths) => lastChangedAt(ctx, { projectId: project.id, repoUrl }, commitSha, paths),
      dataDir: config.dataDir,
      siteUrl: url.replace(/\/+$/, ''),
      signal,
      log: (line) => log.line(line),
      limits: buildLimitsFrom(config),
      lint: await lintOptionsOf(db, project.id),
      ...(build.isPreview ? await previewOverlay(db, build) : {}),
      ...(previous ? { previous } : {}),
      changedFiles,
      force: build.force || version?.force === true,
      // production and version builds lay a delta over their live index; previews index every page
      carrySearchIndex: !build.isPreview,
      ...(version ? { version: { basePath: version.basePath, versioning: version.versioning } } : {}),
    });
    if (result.noChanges && !signal.aborted) {
      outcome = await finishUnchanged(ctx, build, url, result, startedAt, log);
      return;
    }
    if (signal.aborted) {
      fs.rmSync(result.outDir, { recursive: true, force: true });
      await settleAborted(ctx, build.id, signal, log);
      return;
    }
    if (build.isPreview) {
      try {
        const identity = await previewIdentityOf(ctx, build);
        await writePreviewInfo(ctx, { projectId: project.id, stagingDir: result.outDir, ...identity, productionUrl: production });
      } catch (err) {
        ctx.log.warn({ err, buildId: build.id }, 'writing the preview banner data failed; the preview is published without its list of changed pages');
      }
    }
    const dir = await publishDeployment(ctx, project.id, build.id, result.outDir);
    if (result.lint && !build.version) {
      // Read only once the build is deployed (services/lint-results.ts); stored now so a build that waits for approval keeps it.
      await saveLintReport(db, { buildId: build.id, projectId: project.id, report: result.lint }).catch((err: unknown) =>
        ctx.log.warn({ err, buildId: build.id }, 'storing the lint results of a build failed'),
      );
    }
    const built = { commitSha: result.commitSha, commitMessage: result.commitMessage, pages: result.pages, warnings: result.warnings.length };
    if ((await passDeployGates(ctx, build, { id: project.id, repoUrl }, dir, built, log)) === 'wait') return;
    outcome = await deployBuild(
      ctx,
      { id: build.id, projectId: project.id, isPreview: build.isPreview, version: build.version },
      {
        dir,
        url,
        previewName,
        commitSha: result.commitSha,
        commitMessage: result.commitMessage,
        startedAt,
      },
      log,
      `${result.pages} pages to ${url} in ${Date.now() - startedAt.getTime()} ms (${result.warnings.length} warnings)`,
      signal,
    );
    if (!outcome) await settleAborted(ctx, build.id, signal, log);
  } catch (err) {
    if (signal.aborted) {
      await settleAborted(ctx, build.id, signal, log);
      return;
    }
    const message = err instanceof BuildError ? err.message : 'The build failed because of an internal error; the previous deployment keeps serving.';
    const cause = err instanceof BuildError ? (err as { cause?: unknown }).cause : err;
    if (cause) ctx.log.error({ err: cause, buildId: build.id, projectId: build.projectId }, 'build failed unexpectedly');
    outcome = 'failed';
    await setBuildStatus(ctx, build.id, 'building', 'failed', {
      error: message,
      finishedAt: new Date(),
      duration: Date.now() - startedAt.getTime(),
    });
    log.line(`✗ failed: ${message}`);
    // An approval requested by hand for it has nothing left to decide.
    await closeApprovalOfBuild(ctx, build.id, `The build failed before its deploy step: ${message}`).catch(() => undefined);
  } finally {
    log.close();
    const ended = outcome ?? (signal.aborted ? (signal.reason === SHUTDOWN ? 'requeued' : 'cancelled') : undefined);
    if (ended && ended !== 'deployed') ctx.metrics.observeBuild(ended, (Date.now() - startedAt.getTime()) / 1000); // deployed: counted by deployBuild()
    // Other processes read the log from the store (this one's data directory is its own).
    if (ctx.deploymentStore.kind === 's3' && ended !== 'requeued') {
      await readBuildLog(config.dataDir, build.id)
        .then((text) => ctx.deploymentStore.saveBuildLog(build.projectId, build.id, text))
        .catch((err: unknown) => ctx.log.warn({ err, buildId: build.id }, 'saving the build log to the store failed'));
    }
  }
}

/**
 * The live deployment of a channel (the newest Deployment row of production, or of one preview),
 * as an incremental build's starting point: its build's commit and, with the local store, its
 * directory. Undefined when the channel never deployed or its build recorded no commit.
 */
async function liveDeploymentOf(
  ctx: AppContext,
  projectId: string,
  kind: 'production' | 'preview' | 'version',
  previewName: string,
): Promise<RunBuildInput['previous']> {
  const row = await ctx.db.prisma.deployment.findFirst({
    where: { projectId, kind, previewName },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { dir: true, build: { select: { commitSha: true } } },
  });
  if (!row?.build.commitSha) return undefined;
  const localDir = ctx.deploymentStore.kind === 'local' ? path.resolve(ctx.config.dataDir, row.dir) : undefined;
  return { commitSha: row.build.commitSha, ...(localDir ? { localDir } : {}) };
}

/**
 * Ends a build whose commit is the one its channel already serves (and that was not forced):
 * `deployed` at once with the live deployment left serving and no new one recorded; its log
 * says "no changes".
 */
async function finishUnchanged(
  ctx: AppContext,
  build: BuildRow,
  url: string,
  result: RunBuildResult,
  startedAt: Date,
  log: BuildLog,
): Promise<BuildOutcome | undefined> {
  const now = new Date();
  const done = await setBuildStatus(ctx, build.id, 'building', 'deployed', {
    step: null,
    url,
    duration: now.getTime() - startedAt.getTime(),
    deployedAt: now,
    finishedAt: now,
    commitSha: result.commitSha,
    commitMessage: result.commitMessage,
    afterDeployPending: true,
  });
  if (!done) return undefined;
  ctx.metrics.observeBuild('deployed', (now.getTime() - startedAt.getTime()) / 1000);
  log.line(`✓ no changes: ${result.commitSha.slice(0, 7)} is already deployed at ${url}; nothing rebuilt (trigger with force: true to rebuild)`);
  if (await queueVersionsLogged(ctx, build.id, log)) await completeAfterDeploy(ctx, build.id);
  return 'deployed';
}

/**
 * A version build's plan (versions/version-build.ts): the ref it resolves to (logged, and recorded
 * as the build's branch), its base path and URL.
 * @throws BuildError when the version is no longer listed or none of its refs exists.
 */
async function planVersion(
  ctx: AppContext,
  build: BuildRow,
  project: { id: string; repoUrl: string },
  productionUrl: string,
  log: BuildLog,
  signal: AbortSignal,
): Promise<VersionBuildPlan> {
  const live = await ctx.db.prisma.deployment.findFirst({
    where: { projectId: project.id, kind: 'version', previewName: build.version! },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { dir: true },
  });
  const label = build.version!;
  const plan = await planVersionBuild(ctx, {
    projectId: project.id,
    label,
    repoUrl: project.repoUrl,
    productionUrl,
    ...(live ? { live: live.dir } : {}),
    signal,
  });
  log.line(`version ${plan.version.label}: building ${plan.ref.ref} (its ${plan.ref.from}) at ${plan.ref.commitSha.slice(0, 7)}, served under ${plan.basePath}/${plan.force ? '; the versions changed since its live deployment: every page is rendered again' : ''}`);
  if (build.branch !== plan.ref.ref) await ctx.db.prisma.build.updateMany({ where: { id: build.id }, data: { branch: plan.ref.ref } });
  return plan;
}
