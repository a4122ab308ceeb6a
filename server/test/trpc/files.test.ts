import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { seedMember, seedOrg, TEST_PASSWORD } from '../services/identity-fixtures';
import { callerFor, trpcErrorOf } from './trpc-fixtures';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let foreignProjectId: string;
let viewerToken: string;

beforeAll(async () => {
  t = await createTestApp();
  repo = createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({ name: 'Acme', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } }),
      'index.mdx': '# Welcome\n\nFirst version.\n',
      'images/dot.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]),
    },
  });
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Acme', slug: 'acme', repoUrl: repo.path, repoBranch: repo.branch } });
  projectId = res.json().data.id as string;
  const orgId = (await t.ctx.db.prisma.project.findUniqueOrThrow({ where: { id: projectId } })).orgId;
  const otherOrg = await seedOrg(t.ctx.db, 'Other');
  foreignProjectId = (await t.ctx.db.prisma.project.create({ data: { id: newId('project'), orgId: otherOrg, name: 'Theirs', slug: 'theirs', settings: '{}', repoUrl: repo.path } })).id;
  await seedMember(t.ctx.db, orgId, 'viewer@acme.test', 'viewer');
  viewerToken = (await (await callerFor(t.ctx)).auth.signIn({ email: 'viewer@acme.test', password: TEST_PASSWORD })).token;
});
afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('files over tRPC (desktop app opens a project through the server)', () => {
  it('lists the files of the project\'s branch with their sizes and reads them at that commit', async () => {
    const viewer = await callerFor(t.ctx, viewerToken);
    const tree = await viewer.files.tree({ projectId });
    expect(tree).toMatchObject({ ref: 'main', commitSha: repo.headSha() });
    expect(tree.files.map((f) => f.path)).toEqual(['docs.json', 'images/dot.png', 'index.mdx']);
    expect(tree.files.find((f) => f.path === 'index.mdx')!.size).toBe('# Welcome\n\nFirst version.\n'.length);
    const files = await viewer.files.readMany({ projectId, commitSha: tree.commitSha, paths: ['index.mdx', 'images/dot.png'] });
    expect(files).toEqual([
      { path: 'index.mdx', content: '# Welcome\n\nFirst version.\n' },
      { path: 'images/dot.png', content: null },
    ]);
  });

  it('reads a later commit after the branch moves, and the older commit still', async () => {
    const first = repo.headSha();
    const second = repo.commit({ 'index.mdx': '# Welcome\n\nSecond version.\n' }, 'edit');
    const viewer = await callerFor(t.ctx, viewerToken);
    const tree = await viewer.files.tree({ projectId });
    expect(tree.commitSha).toBe(second);
    expect((await viewer.files.read({ projectId, commitSha: second, path: 'index.mdx' })).content).toContain('Second version.');
    expect((await viewer.files.read({ projectId, commitSha: first, path: 'index.mdx' })).content).toContain('First version.');
  });

  it('reads any file\'s bytes as base64 with its size, for the desktop\'s offline preview', async () => {
    const viewer = await callerFor(t.ctx, viewerToken);
    const sha = repo.headSha();
    const dot = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01]);
    expect(await viewer.files.readBytes({ projectId, commitSha: sha, path: 'images/dot.png' })).toEqual({ path: 'images/dot.png', content: dot.toString('base64'), size: 7 });
    const text = await viewer.files.readBytes({ projectId, commitSha: sha, path: 'docs.json' });
    expect(Buffer.from(text.content, 'base64').toString('utf8')).toContain('"Acme"');
    expect((await trpcErrorOf(viewer.files.readBytes({ projectId, commitSha: sha, path: 'images/none.png' }))).code).toBe('NOT_FOUND');
    expect((await trpcErrorOf(viewer.files.readBytes({ projectId: foreignProjectId, commitSha: sha, path: 'images/dot.png' }))).code).toBe('NOT_FOUND');
    expect((await trpcErrorOf((await callerFor(t.ctx)).files.readBytes({ projectId, commitSha: sha, path: 'images/dot.png' }))).code).toBe('UNAUTHORIZED');
  });

  it('refuses a file over 10 MiB with PAYLOAD_TOO_LARGE and reads one of exactly 10 MiB', async () => {
    const max = 10 * 1024 * 1024;
    const sha = repo.commit({ 'downloads/exact.bin': Buffer.alloc(max, 1), 'downloads/huge.bin': Buffer.alloc(max + 1, 2) }, 'large downloads');
    const viewer = await callerFor(t.ctx, viewerToken);
    const exact = await viewer.files.readBytes({ projectId, commitSha: sha, path: 'downloads/exact.bin' });
    expect(exact.size).toBe(max);
    expect(Buffer.from(exact.content, 'base64').equals(Buffer.alloc(max, 1))).toBe(true);
    const huge = await trpcErrorOf(viewer.files.readBytes({ projectId, commitSha: sha, path: 'downloads/huge.bin' }));
    expect(huge.code).toBe('PAYLOAD_TOO_LARGE');
    expect(huge.message).toMatch(/downloads\/huge\.bin/);
  });

  it('answers NOT_FOUND for a missing path or another organization\'s project, BAD_REQUEST for an unknown branch', async () => {
    const viewer = await callerFor(t.ctx, viewerToken);
    expect((await trpcErrorOf(viewer.files.read({ projectId, commitSha: repo.headSha(), path: 'nope.mdx' }))).code).toBe('NOT_FOUND');
    expect((await trpcErrorOf(viewer.files.tree({ projectId: foreignProjectId }))).code).toBe('NOT_FOUND');
    const unknownRef = await trpcErrorOf(viewer.files.tree({ projectId, ref: 'no-such-branch' }));
    expect(unknownRef.code).toBe('BAD_REQUEST');
    expect(unknownRef.message).toMatch(/no-such-branch/);
  });
});
