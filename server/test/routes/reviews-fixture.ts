import { execFileSync } from 'node:child_process';
import { newId } from '@quire/shared/ids';
import { createApiKey } from '../../src/services/api-keys';
import type { Permission } from '@quire/shared/api/api-keys';
import { bearer, type TestApp } from '../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';

/** Ten numbered lines, so comments and merges have lines to point at. */
export const SETUP = `---\ntitle: Setup\n---\n\n${Array.from({ length: 10 }, (_, i) => `Line ${i + 1} of the setup guide.`).join('\n')}\n`;

/**
 * A docs repository whose checked-out branch accepts pushes (`receive.denyCurrentBranch
 * updateInstead`), as a merge pushes to it.
 */
export function reviewRepo(): FixtureRepo {
  const repo = createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] } }),
      'index.mdx': '---\ntitle: Welcome\n---\n\n# Welcome\n\nHome page.\n',
      'guides/setup.mdx': SETUP,
    },
  });
  execFileSync('git', ['config', 'receive.denyCurrentBranch', 'updateInstead'], { cwd: repo.path });
  return repo;
}

/** git in the fixture repository. */
export function gitIn(repo: FixtureRepo, args: string[]): string {
  return execFileSync('git', args, { cwd: repo.path, encoding: 'utf8' }).trim();
}

/** A member of the default organization with `role` and a key of `permissions` acting as them. */
export async function memberWithKey(t: TestApp, email: string, role: string, permissions: Permission[]): Promise<{ userId: string; key: string }> {
  const orgId = t.app.bootstrap.orgId!;
  const user = await t.ctx.db.prisma.user.create({ data: { id: newId('user'), email, name: `Member ${email}`, passwordHash: '' } });
  await t.ctx.db.prisma.membership.create({ data: { orgId, userId: user.id, role } });
  const { key } = await createApiKey(t.ctx.db, { orgId, createdById: user.id, name: email, permissions, projectId: null, mode: 'live', expiresAt: null });
  return { userId: user.id, key };
}

/** REST calls of the reviews routes. */
export function reviewsApi(t: TestApp, projectId: string) {
  const base = `/v1/projects/${projectId}/reviews`;
  return {
    create: (payload: unknown, key = t.adminKey) => t.app.inject({ method: 'POST', url: base, headers: bearer(key), payload: payload as object }),
    patch: (id: string, payload: unknown, key = t.adminKey) => t.app.inject({ method: 'PATCH', url: `${base}/${id}`, headers: bearer(key), payload: payload as object }),
    get: (id: string, key = t.adminKey) => t.app.inject({ url: `${base}/${id}`, headers: bearer(key) }),
    list: (query = '', key = t.adminKey) => t.app.inject({ url: `${base}${query}`, headers: bearer(key) }),
    comment: (id: string, payload: unknown, key = t.adminKey) => t.app.inject({ method: 'POST', url: `${base}/${id}/comments`, headers: bearer(key), payload: payload as object }),
    comments: (id: string, key = t.adminKey) => t.app.inject({ url: `${base}/${id}/comments`, headers: bearer(key) }),
  };
}
