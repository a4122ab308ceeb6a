/**
 * Lint results of builds (interface-spec.md "Collaboration": `GET /lint-results`; decisions.md
 * section 9): each deployed build's lint step is stored with it, and the newest production build's
 * results are what a project's lint results are.
 */
import { ApiError } from '@quire/shared/errors';
import type { LintResultsQuery, LintResults } from '@quire/shared/api/lint';
import type { LintFinding } from '@quire/shared/lint/types';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import type { LintReport } from '../builder/lint-pages';
import { getProjectForCaller } from './projects';
import { promisify } from 'node:util';
import { gunzip, gzip, constants as zlibConstants } from 'node:zlib';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);
/** Marks a `LintReport.pages` value stored gzip-compressed and base64-encoded; older rows hold plain JSON. */
const GZIP_PREFIX = 'gz:';

/**
 * Stores what a deployed build's lint step found (pages with findings, counts per rule). The pages
 * are kept gzip-compressed (base64 after {@link GZIP_PREFIX}), compressed off the main thread: a
 * site of thousands of pages has megabytes of findings, and handing those uncompressed to the
 * database took hundreds of milliseconds of every deploy.
 */
export async function saveLintReport(db: AppContext['db'], input: { buildId: string; projectId: string; report: LintReport }): Promise<void> {
  const pages = input.report.pages.filter((p) => p.findings.length > 0);
  const packed = await gzipAsync(JSON.stringify(pages), { level: zlibConstants.Z_BEST_SPEED });
  await db.prisma.lintReport.create({
    data: {
      buildId: input.buildId,
      projectId: input.projectId,
      pages: GZIP_PREFIX + packed.toString('base64'),
      counts: JSON.stringify(input.report.counts),
      pageCount: input.report.pages.length,
    },
  });
}

/** The pages of a stored report: gzip-compressed ({@link saveLintReport}) or, in older rows, plain JSON. */
async function storedPages(text: string): Promise<{ path: string; findings: LintFinding[] }[]> {
  const json = text.startsWith(GZIP_PREFIX) ? (await gunzipAsync(Buffer.from(text.slice(GZIP_PREFIX.length), 'base64'))).toString('utf8') : text;
  return JSON.parse(json) as { path: string; findings: LintFinding[] }[];
}

/**
 * The lint results of the newest deployed production build that linted, page by page, optionally
 * for one page (`path`) or one rule (`rule`).
 * @throws ApiError not_found for an unknown project, or when no production build has lint results yet.
 */
export async function latestLintResults(ctx: AppContext, auth: RequestAuth, projectId: string, query: LintResultsQuery): Promise<LintResults> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.lintReport.findFirst({
    where: { projectId, build: { status: 'deployed', isPreview: false } },
    orderBy: [{ createdAt: 'desc' }, { buildId: 'desc' }],
    include: { build: { select: { commitSha: true, deployedAt: true } } },
  });
  if (!row) throw new ApiError('not_found', 'No production build of this project has lint results yet: deploy one first.');
  let pages = await storedPages(row.pages);
  if (query.path) pages = pages.filter((p) => p.path === query.path);
  if (query.rule) pages = pages.map((p) => ({ ...p, findings: p.findings.filter((f) => f.ruleId === query.rule) })).filter((p) => p.findings.length > 0);
  return {
    buildId: row.buildId,
    commitSha: row.build.commitSha,
    lintedAt: row.createdAt.toISOString(),
    pageCount: row.pageCount,
    counts: Object.fromEntries(JSON.parse(row.counts) as [string, number][]),
    pages,
  };
}
