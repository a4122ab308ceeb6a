/**
 * Installations of the GitHub App (`GithubInstallation`, prisma/schema.prisma), kept from the
 * `installation` and `installation_repositories` events of `POST /v1/webhooks/github-app`.
 */
import type { GithubInstallationEvent, GithubInstallationRepositoriesEvent } from '@quire/shared/api/git-webhooks';
import type { AppContext } from '../../context';
import { parseStringList } from '../../db/json-columns';

/** What {@link recordInstallation} stored. */
export interface InstallationState {
  id: string;
  account: string;
  status: string;
  repositories: string[];
}

/**
 * Upserts the installation an event describes and returns it.
 * - `installation`: status becomes the action (`created`, `deleted`, `suspend`, `unsuspend`,
 *   `new_permissions_accepted`); the repository list is replaced when the payload lists them,
 *   kept otherwise.
 * - `installation_repositories`: the list gains `repositories_added` and loses
 *   `repositories_removed`; the status stays (`created` for an installation not seen before).
 * Repository names are kept as `owner/name`, sorted.
 */
export async function recordInstallation(
  ctx: Pick<AppContext, 'db'>,
  event: { kind: 'installation'; payload: GithubInstallationEvent } | { kind: 'installation_repositories'; payload: GithubInstallationRepositoriesEvent },
): Promise<InstallationState> {
  const { installation } = event.payload;
  const id = String(installation.id);
  return ctx.db.prisma.$transaction(async (tx) => {
    const existing = await tx.githubInstallation.findUnique({ where: { id } });
    const before = existing ? (parseStringList(existing.repositories) ?? []) : [];
    let repositories: string[];
    let status: string;
    if (event.kind === 'installation') {
      status = event.payload.action;
      repositories = event.payload.repositories ? event.payload.repositories.map((r) => r.full_name) : before;
    } else {
      status = existing?.status ?? 'created';
      const removed = new Set((event.payload.repositories_removed ?? []).map((r) => r.full_name));
      repositories = [...before, ...(event.payload.repositories_added ?? []).map((r) => r.full_name)].filter((r) => !removed.has(r));
    }
    repositories = [...new Set(repositories)].sort();
    const data = { account: installation.account.login, status, repositories: JSON.stringify(repositories) };
    await tx.githubInstallation.upsert({ where: { id }, create: { id, ...data }, update: data });
    return { id, account: data.account, status, repositories };
  });
}
