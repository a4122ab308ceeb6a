/**
 * Lint results of builds (interface-spec.md "Collaboration": `GET /lint-results`; decisions.md
 * section 9): each deployed build's lint step is stored with it, and the newest production build's
 * results are what a project's lint results are.
 */
import { ApiError } from '@quire/shared/errors';
import type { LintResultsQuery, LintResults } from '@quire/shared/api/lint';
import type { LintFinding } from '@quire/shared/lint/types';
import type { AppContext } from '../context';
import type { RequestAuth } from '../http/request-auth';
import type { LintReport } from '../builder/lint-pages';
import { getProjectForCaller } from './projects';

/** Stores what a deployed build's lint step found (pages with findings, counts per rule). */
export async function saveLintReport(db: AppContext['db'], input: { buildId: string; projectId: string; report: LintReport }): Promise<void> {
  const pages = input.report.pages.filter((p) => p.findings.length > 0);
  await db.prisma.lintReport.create({
    data: { buildId: input.buildId, projectId: input.projectId, pages: JSON.stringify(pages), counts: JSON.stringify(input.report.counts), pageCount: input.report.pages.length },
  });
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
  let pages = JSON.parse(row.pages) as { path: string; findings: LintFinding[] }[];
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
