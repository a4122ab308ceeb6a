/**
 * Page ownership (decisions.md section 9: "Ownership assigns path globs to users;
 * `/ownership/stale` lists owned pages past 90 days"; interface-spec.md "Collaboration").
 *
 * - A rule assigns a path glob (shared/src/collab/path-glob.ts) to a member of the project's
 *   organization.
 * - Pages are those of the newest production deployment (its manifest, deployed-site.ts). A page's
 *   owner is the user of the LAST rule, oldest first by creation, whose glob matches the page's
 *   repository file path (`docs/guides/setup.mdx`) or its page path (`guides/setup`), as in GitHub's
 *   CODEOWNERS where the last matching line wins. Rules whose user no longer exists are skipped.
 * - A page's file is found in the repository tree of the deployed commit: the docs root is the
 *   folder prefix under which most of the manifest's pages have a `.mdx` (else `.md`) file.
 *   Generated OpenAPI pages have no file: they have an owner when a glob matches their page path,
 *   but never a last update, so they are never listed as stale.
 * - Last update: frontmatter `lastUpdated` (a YAML date or an ISO 8601 string) when the page's file
 *   at the deployed commit has one, else the committer date of the last commit changing that file
 *   (repo-reader.ts `lastChangedAt`).
 */
import { ApiError, invalidField } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import type { OwnedPage, Owner, Ownership, OwnershipRuleBody, OwnershipRuleDto, StaleFilters, StalePage } from '@quire/shared/api/ownership';
import { MAX_OWNERSHIP_RULES } from '@quire/shared/api/ownership';
import { compilePathGlobs } from '@quire/shared/collab/path-glob';
import { splitFrontmatter } from '@quire/shared/docs/markdown/frontmatter';
import type { AppContext } from '../context';
import { lastChangedAt, listFiles, readFileAt, type ProjectRepo } from '../git/repo-reader';
import type { PageRequest } from '@quire/shared/api/common';
import type { RequestAuth } from '../access/request-auth';
import { recordAudit } from './audit';
import { productionSite } from './deployed-site';
import { getProjectForCaller } from './projects';

const DAY_MS = 86_400_000;

/** A stored rule with its user (null once deleted). */
interface Rule {
  id: string;
  pattern: string;
  createdAt: Date;
  user: Owner | null;
}

/** The project's rules, oldest first (the order in which later rules win), with their users. */
async function rulesOf(ctx: AppContext, projectId: string): Promise<Rule[]> {
  const rows = await ctx.db.prisma.ownershipRule.findMany({ where: { projectId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const users = await ctx.db.prisma.user.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.userId))] } },
    select: { id: true, name: true, email: true },
  });
  const byId = new Map(users.map((u) => [u.id, u]));
  return rows.map((r) => ({ id: r.id, pattern: r.pattern, createdAt: r.createdAt, user: byId.get(r.userId) ?? null }));
}

function toDto(rule: Rule): OwnershipRuleDto {
  return { id: rule.id, pattern: rule.pattern, user: rule.user, createdAt: rule.createdAt.toISOString() };
}

/**
 * The owner of each page: the last rule (of `rules`, oldest first) with a user whose glob matches
 * one of the page's names (`names(page)`: file path and page path).
 */
function resolveOwners<T>(pages: readonly T[], names: (page: T) => string[], rules: readonly Rule[]): Map<T, Rule | null> {
  const matchers = rules.filter((r) => r.user).map((r) => ({ rule: r, match: compilePathGlobs([r.pattern]) }));
  const out = new Map<T, Rule | null>();
  for (const page of pages) {
    const candidates = names(page);
    let owner: Rule | null = null;
    for (const m of matchers) if (candidates.some((n) => m.match(n))) owner = m.rule;
    out.set(page, owner);
  }
  return out;
}

/** The published pages with their repository files (undefined: no file, e.g. OpenAPI pages). */
interface SitePages {
  commitSha: string | null;
  repo: ProjectRepo | null;
  pages: { path: string; file?: string }[];
}

/** The pages of the newest production deployment and their files at its commit. */
async function sitePages(ctx: AppContext, projectId: string, repoUrl: string | null): Promise<SitePages> {
  const site = await productionSite(ctx, projectId);
  if (!site) return { commitSha: null, repo: null, pages: [] };
  const paths = [...new Set(site.manifest.pages.map((p) => p.path))].sort();
  if (!site.commitSha || !repoUrl) return { commitSha: site.commitSha, repo: null, pages: paths.map((path) => ({ path })) };
  const repo = { projectId, repoUrl };
  const tree = new Set((await listFiles(ctx, repo, site.commitSha)).map((f) => f.path));
  const prefix = docsPrefix(tree, new Set(paths));
  return {
    commitSha: site.commitSha,
    repo,
    pages: paths.map((path) => {
      const file = [`${prefix}${path}.mdx`, `${prefix}${path}.md`].find((f) => tree.has(f));
      return file ? { path, file } : { path };
    }),
  };
}

/**
 * The repository file of each page path at `commitSha` (`docs/guides/setup.mdx`), found under the
 * docs root as {@link sitePages} finds it; pages without a file (generated OpenAPI pages) are absent.
 * For `GET /pages` (services/pages.ts).
 * @throws ApiError service_unavailable when the repository cannot be read (repo-reader.ts).
 */
export async function pageSourceFiles(ctx: AppContext, repo: ProjectRepo, commitSha: string, paths: readonly string[]): Promise<Map<string, string>> {
  const tree = new Set((await listFiles(ctx, repo, commitSha)).map((f) => f.path));
  const prefix = docsPrefix(tree, new Set(paths));
  const out = new Map<string, string>();
  for (const path of paths) {
    const file = [`${prefix}${path}.mdx`, `${prefix}${path}.md`].find((f) => tree.has(f));
    if (file) out.set(path, file);
  }
  return out;
}

/**
 * The owner of each page by the project's rules (the last matching rule with a user wins; see the
 * module comment), matching its file (when known) and its page path; null when no rule matches.
 * For `GET /pages` (services/pages.ts).
 */
export async function pageOwners(ctx: AppContext, projectId: string, pages: readonly { path: string; file?: string }[]): Promise<Map<string, Owner | null>> {
  const rules = await rulesOf(ctx, projectId);
  const owners = resolveOwners(pages, (p) => (p.file ? [p.file, p.path] : [p.path]), rules);
  return new Map(pages.map((p) => [p.path, owners.get(p)?.user ?? null]));
}

/**
 * The folder prefix (`docs/`, or `''` for the repository root) under which most page paths have a
 * `.mdx`/`.md` file in `tree`; the shortest among equals.
 */
function docsPrefix(tree: ReadonlySet<string>, pages: ReadonlySet<string>): string {
  const votes = new Map<string, number>();
  for (const file of tree) {
    const stem = /\.mdx?$/i.test(file) ? file.replace(/\.mdx?$/i, '') : undefined;
    if (stem === undefined) continue;
    for (let i = -1; i !== stem.length; ) {
      const prefix = stem.slice(0, i + 1);
      if (pages.has(stem.slice(i + 1))) votes.set(prefix, (votes.get(prefix) ?? 0) + 1);
      const next = stem.indexOf('/', i + 1);
      if (next < 0) break;
      i = next;
    }
  }
  let best = '';
  let most = 0;
  for (const [prefix, n] of votes) if (n > most || (n === most && prefix.length < best.length)) [best, most] = [prefix, n];
  return best;
}

/**
 * `GET /ownership`: the rules (oldest first) and every page of the newest production deployment
 * with its resolved owner (pages empty before the first production deploy).
 * @throws ApiError not_found for an unknown or foreign project; service_unavailable when the
 *   repository cannot be read (repo-reader.ts).
 */
export async function getOwnership(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<Ownership> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const rules = await rulesOf(ctx, projectId);
  const { pages } = await sitePages(ctx, projectId, project.repoUrl);
  const owners = resolveOwners(pages, (p) => (p.file ? [p.file, p.path] : [p.path]), rules);
  const resolved: OwnedPage[] = pages.map((p) => {
    const rule = owners.get(p) ?? null;
    return { path: p.path, owner: rule?.user ?? null, rule: rule?.id ?? null };
  });
  return { rules: rules.map(toDto), pages: resolved };
}

/**
 * `POST /ownership`: assigns the pages matching `pattern` to `userId`; audited as `ownership.created`.
 * @throws ApiError not_found (project); invalid_request naming `userId` when the user is not a
 *   member of the project's organization, or `pattern` when the project already has
 *   {@link MAX_OWNERSHIP_RULES} rules (the glob itself is validated by the request schema).
 */
export async function createOwnershipRule(ctx: AppContext, auth: RequestAuth, projectId: string, body: OwnershipRuleBody): Promise<OwnershipRuleDto> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const member = await ctx.db.prisma.membership.findUnique({
    where: { orgId_userId: { orgId: project.orgId, userId: body.userId } },
    include: { user: { select: { id: true, name: true, email: true } } },
  });
  if (!member) throw invalidField('userId', 'is not a member of the organization', `userId: ${body.userId} is not a member of this project's organization.`);
  const id = newId('ownershipRule');
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    if ((await tx.ownershipRule.count({ where: { projectId } })) >= MAX_OWNERSHIP_RULES) {
      throw invalidField('pattern', `a project has at most ${MAX_OWNERSHIP_RULES} ownership rules`);
    }
    const created = await tx.ownershipRule.create({ data: { id, projectId, pattern: body.pattern, userId: body.userId } });
    await recordAudit(tx, { orgId: project.orgId, projectId, auth, action: 'ownership.created', resource: { type: 'ownership_rule', id, name: body.pattern }, metadata: { pattern: body.pattern, userId: body.userId } });
    return created;
  });
  return toDto({ id: row.id, pattern: row.pattern, createdAt: row.createdAt, user: member.user });
}

/**
 * `DELETE /ownership/{ruleId}`; audited as `ownership.deleted`.
 * @throws ApiError not_found for an unknown or foreign project or rule.
 */
export async function deleteOwnershipRule(ctx: AppContext, auth: RequestAuth, projectId: string, ruleId: string): Promise<void> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  await ctx.db.prisma.$transaction(async (tx) => {
    const row = await tx.ownershipRule.findFirst({ where: { id: ruleId, projectId } });
    if (!row) throw new ApiError('not_found', `No ownership rule ${ruleId}.`);
    await tx.ownershipRule.delete({ where: { id: row.id } });
    await recordAudit(tx, { orgId: project.orgId, projectId, auth, action: 'ownership.deleted', resource: { type: 'ownership_rule', id: row.id, name: row.pattern }, metadata: { pattern: row.pattern, userId: row.userId } });
  });
}

/** A frontmatter `lastUpdated` as a date: a YAML date, or a string `Date` understands; else undefined. */
export function frontmatterDate(value: unknown): Date | undefined {
  const date = value instanceof Date ? value : typeof value === 'string' && value.trim() ? new Date(value.trim()) : undefined;
  return date && Number.isFinite(date.getTime()) ? date : undefined;
}

/**
 * `GET /ownership/stale`: owned pages of the newest production deployment not updated for more
 * than `filters.days` days before `now`, oldest first (ties by path), one page of them.
 * @throws ApiError not_found for an unknown or foreign project; service_unavailable when the
 *   repository cannot be read.
 */
export async function listStalePages(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  filters: StaleFilters,
  page: PageRequest,
  now = new Date(),
): Promise<{ items: StalePage[]; total: number }> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const rules = await rulesOf(ctx, projectId);
  const site = await sitePages(ctx, projectId, project.repoUrl);
  const owners = resolveOwners(site.pages, (p) => (p.file ? [p.file, p.path] : [p.path]), rules);
  const owned = site.pages.filter((p): p is { path: string; file: string } => p.file !== undefined && owners.get(p) != null);
  if (owned.length === 0 || !site.repo || !site.commitSha) return { items: [], total: 0 };

  const dates = new Map<string, { at: Date; source: 'frontmatter' | 'git' }>();
  const fromGit: string[] = [];
  for (const p of owned) {
    const text = await readFileAt(ctx, site.repo, site.commitSha, p.file);
    let at: Date | undefined;
    try {
      at = text === null ? undefined : frontmatterDate(splitFrontmatter(text, p.file).data.lastUpdated);
    } catch {
      at = undefined; // frontmatter that does not parse: the git history decides
    }
    if (at) dates.set(p.file, { at, source: 'frontmatter' });
    else fromGit.push(p.file);
  }
  for (const [file, at] of await lastChangedAt(ctx, site.repo, site.commitSha, fromGit)) dates.set(file, { at, source: 'git' });

  const limit = now.getTime() - filters.days * DAY_MS;
  const stale: StalePage[] = [];
  for (const p of owned) {
    const last = dates.get(p.file);
    if (!last || last.at.getTime() >= limit) continue;
    stale.push({
      path: p.path,
      owner: owners.get(p)!.user!,
      lastUpdated: last.at.toISOString(),
      source: last.source,
      daysSince: Math.floor((now.getTime() - last.at.getTime()) / DAY_MS),
    });
  }
  stale.sort((a, b) => a.lastUpdated.localeCompare(b.lastUpdated) || a.path.localeCompare(b.path));
  return { items: stale.slice(page.skip, page.skip + page.take), total: stale.length };
}
