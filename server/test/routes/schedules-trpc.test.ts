import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import type { AppContext } from '../../src/context';
import { openTempDb, seedMember, seedOrg, TEST_PASSWORD } from '../services/identity-fixtures';
import { appContextFor, callerFor, trpcErrorOf } from '../trpc/trpc-fixtures';

describe('schedules router (desktop app)', () => {
  let app: AppContext;
  let cleanup: () => Promise<void>;
  let projectId: string;
  let foreignProjectId: string;
  const tokens: Record<string, string> = {};
  const at = () => new Date(Date.now() + 3600_000).toISOString();

  beforeAll(async () => {
    const tmp = await openTempDb();
    cleanup = tmp.cleanup;
    app = appContextFor(tmp.db, tmp.dir);
    const orgId = await seedOrg(tmp.db, 'Acme');
    const otherOrg = await seedOrg(tmp.db, 'Other');
    const repo = { repoUrl: 'https://git.example.com/acme/docs.git', repoBranch: 'main' };
    projectId = (await tmp.db.prisma.project.create({ data: { id: newId('project'), orgId, name: 'Docs', slug: 'docs', settings: '{}', ...repo } })).id;
    foreignProjectId = (await tmp.db.prisma.project.create({ data: { id: newId('project'), orgId: otherOrg, name: 'Theirs', slug: 'theirs', settings: '{}', ...repo } })).id;
    for (const role of ['editor', 'viewer'] as const) {
      await seedMember(tmp.db, orgId, `${role}@acme.test`, role);
      tokens[role] = (await (await callerFor(app)).auth.signIn({ email: `${role}@acme.test`, password: TEST_PASSWORD })).token;
    }
  });
  afterAll(async () => {
    await app?.jobs.close();
    await cleanup?.();
  });

  it('lets an editor schedule, list, get and cancel, as themselves', async () => {
    const editor = await callerFor(app, tokens.editor);
    const s = await editor.schedules.create({ projectId, ref: 'main', at: at() });
    expect(s).toMatchObject({ id: expect.stringMatching(/^sch_/), kind: 'ref', ref: 'main', status: 'scheduled', createdBy: { email: 'editor@acme.test' } });
    expect((await editor.schedules.list({ projectId })).data.map((x) => x.id)).toEqual([s.id]);
    expect(await editor.schedules.get({ projectId, scheduleId: s.id })).toEqual(s);
    await editor.schedules.cancel({ projectId, scheduleId: s.id });
    expect((await editor.schedules.list({ projectId, status: 'cancelled' })).pagination.total).toBe(1);
    const again = await trpcErrorOf(editor.schedules.cancel({ projectId, scheduleId: s.id }));
    expect(again.code).toBe('CONFLICT');
    const entry = await app.db.prisma.auditEntry.findFirst({ where: { projectId, action: 'schedule.created' } });
    expect(entry).toMatchObject({ actorId: expect.stringMatching(/^usr_/), apiKeyId: null });
  });

  it('refuses a viewer scheduling, a time without an offset, and another organization\'s project', async () => {
    const viewer = await callerFor(app, tokens.viewer);
    expect((await viewer.schedules.list({ projectId })).data).toHaveLength(1);
    expect((await trpcErrorOf(viewer.schedules.create({ projectId, ref: 'main', at: at() }))).code).toBe('FORBIDDEN');
    const editor = await callerFor(app, tokens.editor);
    expect((await trpcErrorOf(editor.schedules.create({ projectId, ref: 'main', at: at().replace(/Z$/, '') }))).code).toBe('BAD_REQUEST');
    expect((await trpcErrorOf(editor.schedules.list({ projectId: foreignProjectId }))).code).toBe('NOT_FOUND');
    expect((await trpcErrorOf(editor.schedules.get({ projectId, scheduleId: 'sch_nope' }))).code).toBe('NOT_FOUND');
  });
});
