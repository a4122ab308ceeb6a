import { newId } from '@quire/shared/ids';
import { createAppContext, type AppContext } from '../../src/context';
import { loadConfig } from '../../src/env';
import { openTempDb, seedMember, seedOrg, TEST_PASSWORD } from '../services/identity-fixtures';
import { callerFor } from './trpc-fixtures';
import { reviewRepo } from '../routes/reviews-fixture';
import type { FixtureRepo } from '../helpers/git-repo';

export type SyncRole = 'editor' | 'reviewer' | 'reviewer2' | 'viewer';

/**
 * An app with an organization (an editor, two reviewers, a viewer, each signed in), a docs project on a fixture repository, and
 * a project of another organization.
 */
export interface SyncFixture {
  app: AppContext;
  repo: FixtureRepo;
  projectId: string;
  foreignProjectId: string;
  users: Record<SyncRole, { id: string; token: string }>;
  caller: (role: SyncRole) => ReturnType<typeof callerFor>;
  close: () => Promise<void>;
}

/** Sets up a {@link SyncFixture} (SQLite, or PostgreSQL with QUIRE_TEST_DB=postgres). */
export async function syncFixture(): Promise<SyncFixture> {
  const tmp = await openTempDb();
  const config = loadConfig({ QUIRE_DATA_DIR: tmp.dir, QUIRE_LOG_LEVEL: 'silent', QUIRE_ALLOW_FILE_REPOS: '1' });
  const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => log, level: 'silent', silent() {} };
  const app = createAppContext({ config, db: tmp.db, log: log as unknown as AppContext['log'] });
  const repo = reviewRepo();
  const orgId = await seedOrg(tmp.db, 'Acme');
  const otherOrg = await seedOrg(tmp.db, 'Other');
  const projectId = (await tmp.db.prisma.project.create({ data: { id: newId('project'), orgId, name: 'Docs', slug: 'docs', settings: '{}', repoUrl: repo.path, repoBranch: 'main' } })).id;
  const foreignProjectId = (await tmp.db.prisma.project.create({ data: { id: newId('project'), orgId: otherOrg, name: 'Theirs', slug: 'theirs', settings: '{}' } })).id;
  const users = {} as SyncFixture['users'];
  for (const role of ['editor', 'reviewer', 'reviewer2', 'viewer'] as const) {
    const user = await seedMember(tmp.db, orgId, `${role}@acme.test`, role === 'reviewer2' ? 'reviewer' : role);
    users[role] = { id: user.id, token: (await (await callerFor(app)).auth.signIn({ email: `${role}@acme.test`, password: TEST_PASSWORD })).token };
  }
  return {
    app,
    repo,
    projectId,
    foreignProjectId,
    users,
    caller: (role) => callerFor(app, users[role].token),
    close: async () => {
      await app.jobs.close();
      await tmp.cleanup();
      repo.cleanup();
    },
  };
}
