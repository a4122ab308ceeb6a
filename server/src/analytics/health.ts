/**
 * Content health (interface-spec.md "Content health": `score`, `stalePages`, `gaps`,
 * `coveragePercent`; "Limits": stale after more than 90 days) and the per-page health behind its
 * score. The pages are those of the newest production deployment (its manifest, services/deployed-site.ts).
 *
 * A page's score (0-100) is the sum of four components:
 * - freshness, up to 30: updated within 90 days 30; older pages lose points linearly to 0 at 365
 *   days; unknown date (generated API pages, deployments built before dates were recorded) 15;
 * - feedback, up to 20: "Was this page helpful?" answers (schema `PageFeedback`): 20 times the share of
 *   helpful answers, rounded; no answers 20;
 * - broken links, up to 25: findings of rule `links/*` on the page in the newest production lint
 *   report (services/lint-results.ts): none 25, one 15, two 5, more 0; no report 25;
 * - completeness, up to 25: a title 5, a description 5, at least 50 words of text 10, and for pages
 *   over 300 words at least one heading 5 (shorter pages get these 5 points without one). Deployments
 *   built before word counts were recorded get the 10 + 5 text points.
 * The project's score is the average of its pages' scores, rounded (0 before the first production deploy).
 */
import { ApiError } from '@quire/shared/errors';
import type { Owner } from '@quire/shared/api/ownership';
import { MAX_HEALTH_GAPS, STALE_PAGE_DAYS, type ContentHealth, type PageHealth } from '@quire/shared/api/analytics';
import { feedbackCountsByPage } from '../services/feedback';
import type { AppContext } from '../context';
import type { PageRequest } from '@quire/shared/api/common';
import type { RequestAuth } from '../access/request-auth';
import { productionSite, type ProductionSite } from '../services/deployed-site';
import { latestLintResults } from '../services/lint-results';
import { pageOwners, pageSourceFiles } from '../services/ownership';
import { getProjectForCaller, type ProjectRecord } from '../services/projects';

const DAY_MS = 86_400_000;
/** Age at which freshness reaches 0, in days. */
const FRESHNESS_ZERO_DAYS = 365;
/** Words a page needs for the body-text points, and past which it needs a heading. */
const MIN_WORDS = 50;
const LONG_PAGE_WORDS = 300;

type Manifest = ProductionSite['manifest'];
type ManifestPage = Manifest['pages'][number];

/** Health sort orders of `GET .../analytics/health`. */
export type HealthSort = 'score' | '-score' | 'path';

/** Percentage of documented public API operations; 100 when the repository has none (nothing is left undocumented) or the deployment predates the count. */
export function coveragePercent(manifest: Pick<Manifest, 'apiCoverage'> | undefined): number {
  const c = manifest?.apiCoverage;
  if (!c || c.operations === 0) return 100;
  return Math.round((Math.min(c.documented, c.operations) / c.operations) * 100);
}

/** A page's last update as a date, or undefined when unknown or unreadable. */
function lastUpdatedOf(page: ManifestPage): Date | undefined {
  if (!page.lastUpdated) return undefined;
  const at = new Date(page.lastUpdated);
  return Number.isFinite(at.getTime()) ? at : undefined;
}

function freshness(at: Date | undefined, now: Date): PageHealth['components']['freshness'] {
  if (!at) return { points: 15, max: 30, detail: 'last update unknown' };
  const days = Math.floor((now.getTime() - at.getTime()) / DAY_MS);
  if (days <= STALE_PAGE_DAYS) return { points: 30, max: 30, detail: `updated ${Math.max(0, days)} days ago` };
  const points = Math.max(0, Math.round(30 * (1 - (days - STALE_PAGE_DAYS) / (FRESHNESS_ZERO_DAYS - STALE_PAGE_DAYS))));
  return { points, max: 30, detail: `stale: updated ${days} days ago` };
}

function feedback(votes: { helpful: number; notHelpful: number } | undefined): PageHealth['components']['feedback'] {
  const total = votes ? votes.helpful + votes.notHelpful : 0;
  if (!votes || total === 0) return { points: 20, max: 20, detail: 'no feedback yet' };
  return { points: Math.round((20 * votes.helpful) / total), max: 20, detail: `${votes.helpful} of ${total} readers found it helpful` };
}

function brokenLinks(count: number | undefined): PageHealth['components']['brokenLinks'] {
  if (count === undefined) return { points: 25, max: 25, detail: 'no lint report' };
  const points = count === 0 ? 25 : count === 1 ? 15 : count === 2 ? 5 : 0;
  return { points, max: 25, detail: count === 0 ? 'no broken links' : `${count} broken link${count === 1 ? '' : 's'}` };
}

function completeness(page: ManifestPage): PageHealth['components']['completeness'] {
  const missing: string[] = [];
  let points = 0;
  if (page.title?.trim()) points += 5;
  else missing.push('a title');
  if (page.description?.trim()) points += 5;
  else missing.push('a description');
  if (page.words === undefined) points += 15;
  else {
    if (page.words >= MIN_WORDS) points += 10;
    else missing.push(`at least ${MIN_WORDS} words (has ${page.words})`);
    if (page.words <= LONG_PAGE_WORDS || (page.headings ?? 0) > 0) points += 5;
    else missing.push(`headings (${page.words} words without one)`);
  }
  return { points, max: 25, detail: missing.length === 0 ? 'complete' : `missing ${missing.join(', ')}` };
}

/** Page path of a docs-root file (`guides/setup.mdx` → `guides/setup`). */
const pageOfFile = (file: string) => file.replace(/\.mdx?$/i, '');

/** `links/*` findings per page path of the newest production lint report; undefined without one. */
async function brokenLinksByPage(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<Map<string, number> | undefined> {
  try {
    const report = await latestLintResults(ctx, auth, projectId, {});
    const out = new Map<string, number>();
    for (const p of report.pages) {
      const n = p.findings.filter((f) => f.ruleId.startsWith('links/')).length;
      if (n > 0) out.set(pageOfFile(p.path), n);
    }
    return out;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') return undefined;
    throw err;
  }
}

/** Owners of the pages: by file and page path when the repository can be read, else by page path. */
async function ownersOf(ctx: AppContext, project: ProjectRecord, site: ProductionSite): Promise<Map<string, Owner | null>> {
  const paths = site.manifest.pages.map((p) => p.path);
  let files = new Map<string, string>();
  if (project.repoUrl && site.commitSha) {
    try {
      files = await pageSourceFiles(ctx, { projectId: project.id, repoUrl: project.repoUrl }, site.commitSha, paths);
    } catch (err) {
      ctx.log.warn({ err, projectId: project.id }, 'page files unreadable for ownership; owners matched by page path');
    }
  }
  return pageOwners(ctx, project.id, paths.map((path) => (files.has(path) ? { path, file: files.get(path)! } : { path })));
}

/** Every page's health (manifest order), and the manifest; empty before the first production deploy. */
async function allPageHealth(ctx: AppContext, auth: RequestAuth, project: ProjectRecord, now: Date): Promise<{ pages: PageHealth[]; manifest?: Manifest }> {
  const site = await productionSite(ctx, project.id);
  if (!site) return { pages: [] };
  const [links, votes, owners] = await Promise.all([
    brokenLinksByPage(ctx, auth, project.id),
    feedbackCountsByPage(ctx, project.id),
    ownersOf(ctx, project, site),
  ]);
  const seen = new Set<string>();
  const pages: PageHealth[] = [];
  for (const p of site.manifest.pages) {
    if (seen.has(p.path)) continue;
    seen.add(p.path);
    const at = lastUpdatedOf(p);
    const components = {
      freshness: freshness(at, now),
      feedback: feedback(votes.get(p.path)),
      brokenLinks: brokenLinks(links ? (links.get(p.path) ?? 0) : undefined),
      completeness: completeness(p),
    };
    const score = components.freshness.points + components.feedback.points + components.brokenLinks.points + components.completeness.points;
    pages.push({ path: p.path, title: p.title ?? p.path, score, owner: owners.get(p.path) ?? null, lastUpdated: at ? at.toISOString() : null, components });
  }
  return { pages, manifest: site.manifest };
}

/**
 * `GET .../analytics/health`: one page of the pages' health, worst first by default (ties by path).
 * @throws ApiError not_found (project); Error when the deployment's manifest cannot be read.
 */
export async function listPageHealth(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  sort: HealthSort,
  page: PageRequest,
  now = new Date(),
): Promise<{ items: PageHealth[]; total: number }> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const { pages } = await allPageHealth(ctx, auth, project, now);
  const byPath = (a: PageHealth, b: PageHealth) => a.path.localeCompare(b.path);
  pages.sort(sort === 'path' ? byPath : sort === '-score' ? (a, b) => b.score - a.score || byPath(a, b) : (a, b) => a.score - b.score || byPath(a, b));
  return { items: pages.slice(page.skip, page.skip + page.take), total: pages.length };
}

/**
 * `GET .../analytics/content-health` (interface-spec.md "Content health"; see the module comment).
 * Gaps are counted over versions together (topic and source), most frequent first, at most {@link MAX_HEALTH_GAPS}.
 * @throws ApiError not_found (project); Error when the deployment's manifest cannot be read.
 */
export async function contentHealth(ctx: AppContext, auth: RequestAuth, projectId: string, now = new Date()): Promise<ContentHealth> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const [{ pages, manifest }, gaps] = await Promise.all([
    allPageHealth(ctx, auth, project, now),
    ctx.db.prisma.contentGap.groupBy({ by: ['topic', 'source'], where: { projectId }, _sum: { frequency: true }, orderBy: [{ _sum: { frequency: 'desc' } }, { topic: 'asc' }], take: MAX_HEALTH_GAPS }),
  ]);
  const limit = now.getTime() - STALE_PAGE_DAYS * DAY_MS;
  const stalePages = pages
    .filter((p) => p.lastUpdated !== null && Date.parse(p.lastUpdated) < limit)
    .map((p) => ({ path: p.path, lastUpdated: p.lastUpdated! }))
    .sort((a, b) => a.lastUpdated.localeCompare(b.lastUpdated) || a.path.localeCompare(b.path));
  return {
    score: pages.length === 0 ? 0 : Math.round(pages.reduce((n, p) => n + p.score, 0) / pages.length),
    stalePages,
    gaps: gaps.map((g) => ({ topic: g.topic, source: g.source, frequency: g._sum.frequency ?? 0 })),
    coveragePercent: coveragePercent(manifest),
  };
}
