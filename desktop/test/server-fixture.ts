import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { bearer, createTestApp, type TestApp } from '../../server/test/helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../../server/test/helpers/git-repo';
import { seedMember } from '../../server/test/services/identity-fixtures';

/** A real Quire server listening on a free port with one project on a fixture repository. */
export interface ServerFixture {
  t: TestApp;
  repo: FixtureRepo;
  /** `http://127.0.0.1:<port>` */
  serverUrl: string;
  projectId: string;
  orgId: string;
  /** A temporary directory for the core's data (removed by `close`). */
  dataDir: string;
  /** Closes the server and removes the repository and the data directory. */
  close(): Promise<void>;
}

/**
 * Starts a test server app (server/test/helpers/app.ts) with a project named "Acme" (slug `acme`) on
 * a repository holding `files`, a member `writer@acme.test` (role `editor`, password `TEST_PASSWORD`)
 * and any `members` given, listening on a free port on 127.0.0.1.
 */
export async function startServerFixture(files: Record<string, string | Buffer>, members: Array<{ email: string; role: 'editor' | 'reviewer' | 'viewer' | 'admin' }> = []): Promise<ServerFixture> {
  const t = await createTestApp();
  const repo = createFixtureRepo(undefined, { extraFiles: files });
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Acme', slug: 'acme', repoUrl: repo.path, repoBranch: repo.branch } });
  const projectId = res.json().data.id as string;
  const orgId = (await t.ctx.db.prisma.project.findUniqueOrThrow({ where: { id: projectId } })).orgId;
  for (const m of [{ email: 'writer@acme.test', role: 'editor' as const }, ...members]) await seedMember(t.ctx.db, orgId, m.email, m.role);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const serverUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-desktop-test-'));
  return {
    t,
    repo,
    serverUrl,
    projectId,
    orgId,
    dataDir,
    async close() {
      await t.close();
      repo.cleanup();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
