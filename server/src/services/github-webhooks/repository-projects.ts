/**
 * The projects connected to a repository named in a webhook payload: those whose `repoUrl` has the
 * same identity (`@quire/shared/repo/repo-identity`: host and path, case-insensitive, any URL
 * form) as one of the payload's `clone_url`, `html_url`, `ssh_url`, `git_url`.
 */
import type { GithubRepository } from '@quire/shared/api/git-webhooks';
import { repoIdentity } from '@quire/shared/repo/repo-identity';
import type { AppContext } from '../../context';

/** What handling a delivery needs of a project. */
export interface RepositoryProject {
  id: string;
  orgId: string;
  slug: string;
  repoUrl: string;
  repoBranch: string;
  /** the GitHub shared secret (plaintext column), null when none is set */
  webhookSecret: string | null;
}

/** The identities of the repository's URLs (empty when it gives none). */
export function repositoryIdentities(repository: GithubRepository): Set<string> {
  const urls = [repository.clone_url, repository.html_url, repository.ssh_url, repository.git_url];
  return new Set(urls.flatMap((u) => (u ? [repoIdentity(u)] : [])).filter((id): id is string => id !== null));
}

/**
 * Every project whose `repoUrl` names `repository`, oldest first. The database narrows the
 * search to `repoUrl`s containing the repository's name (case-insensitively: `lower()` on both
 * databases, `\` widened to `_` as in db/literal-contains.ts); the identity rule decides.
 */
export async function projectsOfRepository(ctx: Pick<AppContext, 'db'>, repository: GithubRepository): Promise<RepositoryProject[]> {
  const identities = repositoryIdentities(repository);
  if (identities.size === 0) return [];
  const names = new Set([...identities].map((id) => id.slice(id.lastIndexOf('/') + 1)));
  const pattern = (name: string) => `%${name.replaceAll('\\', '_')}%`;
  const candidates = new Set<string>();
  for (const name of names) {
    const rows = await ctx.db.prisma.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Project" WHERE "repoUrl" IS NOT NULL AND lower("repoUrl") LIKE ${pattern(name)}`;
    for (const r of rows) candidates.add(r.id);
  }
  if (candidates.size === 0) return [];
  const projects = await ctx.db.prisma.project.findMany({
    where: { id: { in: [...candidates] } },
    select: { id: true, orgId: true, slug: true, repoUrl: true, repoBranch: true, webhookSecret: true, createdAt: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return projects
    .filter((p): p is typeof p & { repoUrl: string } => p.repoUrl !== null && identities.has(repoIdentity(p.repoUrl) ?? ''))
    .map(({ createdAt: _createdAt, ...p }) => p);
}

/**
 * The distinct webhook secrets set on projects: the candidates a `POST /v1/webhooks/github`
 * delivery's signature is checked against (one HMAC each).
 */
export async function projectWebhookSecrets(ctx: Pick<AppContext, 'db'>): Promise<string[]> {
  const rows = await ctx.db.prisma.project.findMany({
    where: { webhookSecret: { not: null } },
    select: { webhookSecret: true },
    distinct: ['webhookSecret'],
  });
  return rows.map((r) => r.webhookSecret).filter((s): s is string => Boolean(s));
}

/** The projects whose webhook secret is `secret` (a verified delivery's sender), oldest first. */
export async function projectsWithSecret(ctx: Pick<AppContext, 'db'>, secret: string): Promise<RepositoryProject[]> {
  const rows = await ctx.db.prisma.project.findMany({
    where: { webhookSecret: secret },
    select: { id: true, orgId: true, slug: true, repoUrl: true, repoBranch: true, webhookSecret: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map((p) => ({ ...p, repoUrl: p.repoUrl ?? '' }));
}
