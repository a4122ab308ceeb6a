import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TRPCError } from '@trpc/server';
import { bearer, createTestApp, type TestApp } from '../../server/test/helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../../server/test/helpers/git-repo';
import { seedMember, TEST_PASSWORD } from '../../server/test/services/identity-fixtures';
import { callerFor } from '../../server/test/trpc/trpc-fixtures';
import { createCore, type DesktopCore } from '../src/core/compose';
import { createCoreCaller } from '../src/core/router';
import { fileTokenVault } from '../src/core/token-vault';

/**
 * Offline review work and sync of the desktop core against a real Quire server, reached through a
 * TCP relay that the tests stop and start ("the server is down"). Two installations: a writer who
 * proposes and a reviewer who reviews.
 */

/** A TCP relay to the server: `stop()` makes the server unreachable (connections refused), `start()` brings it back on the same port. */
class Relay {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: number) {}
  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(a);
        a.pipe(b);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          this.sockets.delete(a);
          b.destroy();
        });
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

let t: TestApp;
let repo: FixtureRepo;
let relay: Relay;
let serverUrl: string;
let projectId: string;
let reviewerId: string;
let writerToken: string;
let reviewerToken: string;
const dirs: Record<'writer' | 'reviewer', string> = { writer: '', reviewer: '' };
const cores: Partial<Record<'writer' | 'reviewer', DesktopCore>> = {};

/** Opens (again) the core of one installation with its background sync off: the tests sync with `sync.now`. */
function open(who: 'writer' | 'reviewer') {
  const core = createCore({ dataDir: dirs[who], vault: fileTokenVault(dirs[who]), sync: { auto: false } });
  cores[who] = core;
  return createCoreCaller(core);
}
const caller = (who: 'writer' | 'reviewer') => createCoreCaller(cores[who]!);

async function errorOf(p: Promise<unknown>): Promise<TRPCError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TRPCError);
  return err as TRPCError;
}

const db = () => t.ctx.db.prisma;
const approvalsOf = async (reviewId: string) =>
  (await db().auditEntry.findMany({ where: { action: 'review.updated', resourceId: reviewId } })).filter((e) => JSON.parse(e.metadata).to === 'approved').length;

beforeAll(async () => {
  t = await createTestApp();
  repo = createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] } }),
      'index.mdx': '---\ntitle: Welcome home\n---\n\nFirst version of the welcome page.\n',
      'guides/setup.mdx': '---\ntitle: Setting up\n---\n\nInstall the tool.\n',
    },
  });
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Acme', slug: 'acme', repoUrl: repo.path, repoBranch: repo.branch } });
  projectId = res.json().data.id as string;
  const orgId = (await db().project.findUniqueOrThrow({ where: { id: projectId } })).orgId;
  await seedMember(t.ctx.db, orgId, 'writer@acme.test', 'editor');
  reviewerId = (await seedMember(t.ctx.db, orgId, 'reviewer@acme.test', 'reviewer')).id;
  writerToken = (await (await callerFor(t.ctx)).auth.signIn({ email: 'writer@acme.test', password: TEST_PASSWORD })).token;
  reviewerToken = (await (await callerFor(t.ctx)).auth.signIn({ email: 'reviewer@acme.test', password: TEST_PASSWORD })).token;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  relay = new Relay((t.app.server.address() as AddressInfo).port);
  await relay.start();
  serverUrl = `http://127.0.0.1:${relay.port}`;
  for (const who of ['writer', 'reviewer'] as const) {
    dirs[who] = fs.mkdtempSync(path.join(os.tmpdir(), `quire-sync-${who}-`));
    const c = open(who);
    await c.session.signIn({ serverUrl, email: `${who}@acme.test`, password: TEST_PASSWORD });
    await c.projects.list();
  }
  await caller('writer').workspace.open({ projectId });
});

afterAll(async () => {
  vi.unstubAllGlobals();
  for (const core of Object.values(cores)) await core?.close();
  await relay?.stop().catch(() => undefined);
  await t?.close();
  repo?.cleanup();
  for (const dir of Object.values(dirs)) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

let reviewId: string;
const edited = '---\ntitle: Welcome home\n---\n\nSecond version of the welcome page.\n';

describe('desktop sync: propose and review', () => {
  it('proposes the local edits at once (local only, pending) and the sync opens the review on the server', async () => {
    const w = caller('writer');
    await w.files.write({ projectId, path: 'index.mdx', content: edited });
    const people = (await w.reviews.people({ projectId })).map((p) => p.email);
    expect(people).toContain('reviewer@acme.test');
    expect(people).not.toContain('writer@acme.test');
    const local = await w.reviews.propose({ projectId, title: 'Reword the welcome', reviewers: [reviewerId], paths: ['index.mdx', 'guides/setup.mdx'] });
    expect(local).toMatchObject({ localOnly: true, pending: true, problem: null, status: 'open', changes: [{ path: 'index.mdx', change: 'modified' }], reviewers: [{ id: reviewerId, email: 'reviewer@acme.test' }] });
    expect((await w.reviews.list({ projectId })).items.map((r) => r.id)).toEqual([local.id]);
    expect(await w.sync.status()).toMatchObject({ state: 'synced', pending: 1, items: [{ seq: 1, type: 'review.create', state: 'pending', summary: 'Propose "Reword the welcome"' }] });

    expect(await w.sync.now()).toMatchObject({ state: 'synced', pending: 0, lastError: null, items: [] });
    const [synced] = (await w.reviews.list({ projectId })).items;
    expect(synced).toMatchObject({ localOnly: false, pending: false, title: 'Reword the welcome', revision: 1 });
    expect(synced!.id).toMatch(/^rev_/);
    reviewId = synced!.id;
    expect((await w.reviews.get({ projectId, reviewId: local.id })).id).toBe(reviewId);
    const row = await db().review.findUniqueOrThrow({ where: { id: reviewId }, include: { files: true } });
    expect(row.files).toEqual([expect.objectContaining({ path: 'index.mdx', change: 'modified', content: edited })]);
  });

  it('refuses to propose when none of the paths is edited, naming the field, and queues nothing', async () => {
    const err = await errorOf(caller('writer').reviews.propose({ projectId, title: 'Nothing', paths: ['guides/setup.mdx'] }));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toMatch(/^paths: /);
    expect((await caller('writer').sync.status()).pending).toBe(0);
  });

  it('keeps the reviewer\'s review list with both texts of each page after a pull', async () => {
    const r = caller('reviewer');
    await r.sync.now();
    expect((await r.reviews.list({ projectId })).items.map((x) => x.id)).toEqual([reviewId]);
    const detail = await r.reviews.get({ projectId, reviewId });
    expect(detail.files).toEqual([{ path: 'index.mdx', change: 'modified', before: '---\ntitle: Welcome home\n---\n\nFirst version of the welcome page.\n', after: edited }]);
    expect(detail.comments).toEqual([]);
  });

  it('works with the server stopped: the comment and approval show at once, and once it is back the server holds each exactly once', async () => {
    await relay.stop();
    const r = caller('reviewer');
    const comment = await r.reviews.comment({ projectId, reviewId, path: 'index.mdx', lineStart: 5, lineEnd: 5, body: 'Say what changed.' });
    expect(comment).toMatchObject({ pending: true, problem: null, body: 'Say what changed.', revision: 1, author: { email: 'reviewer@acme.test' } });
    expect(await r.reviews.approve({ projectId, reviewId })).toMatchObject({ status: 'approved', pending: true });
    const offline = await r.sync.now();
    expect(offline).toMatchObject({ state: 'offline', pending: 2, lastError: expect.stringContaining('cannot be reached') });
    expect(offline.items.map((i) => [i.type, i.state, i.attempts])).toEqual([
      ['review.comment', 'pending', 1],
      ['review.setStatus', 'pending', 1],
    ]);
    expect((await r.reviews.get({ projectId, reviewId })).comments).toEqual([expect.objectContaining({ id: comment.id, pending: true })]);
    expect(await db().reviewComment.count({ where: { reviewId } })).toBe(0);

    await relay.start();
    expect(await r.sync.now()).toMatchObject({ state: 'synced', pending: 0, items: [] });
    const rows = await db().reviewComment.findMany({ where: { reviewId } });
    expect(rows.map((c) => c.body)).toEqual(['Say what changed.']);
    expect((await db().review.findUniqueOrThrow({ where: { id: reviewId } })).status).toBe('approved');
    expect(await approvalsOf(reviewId)).toBe(1);
    const detail = await r.reviews.get({ projectId, reviewId });
    expect(detail).toMatchObject({ status: 'approved', pending: false, commentCount: 1 });
    expect(detail.comments).toEqual([expect.objectContaining({ id: rows[0]!.id, body: 'Say what changed.', pending: false, problem: null })]);
  });

  it('changes nothing when a pushed batch is sent again: the server answers the stored results', async () => {
    const outbox = cores.reviewer!.outbox;
    const done = outbox.items(['done']);
    const server = await callerFor(t.ctx, reviewerToken);
    const again = await server.sync.push({ clientId: outbox.clientId(), mutations: done.map((i) => ({ seq: i.seq, mutation: i.mutation })) });
    expect(again.results).toEqual(done.map((i) => ({ seq: i.seq, ok: true, result: i.result })));
    expect(await db().reviewComment.count({ where: { reviewId } })).toBe(1);
    expect(await approvalsOf(reviewId)).toBe(1);
  });

  it('survives a crash between send and acknowledgement: reopened, it sends the same number again and nothing is applied twice', async () => {
    const r = caller('reviewer');
    await r.reviews.comment({ projectId, reviewId, path: 'index.mdx', lineStart: 1, lineEnd: 2, body: 'The title reads well.' });
    const realFetch = globalThis.fetch;
    // the server gets the push and applies it; its answer is lost on the way back
    vi.stubGlobal('fetch', async (url: string | URL | Request, init?: RequestInit) => {
      const res = await realFetch(url, init);
      if (String(url).includes('sync.push')) {
        await res.text();
        throw new TypeError('fetch failed');
      }
      return res;
    });
    expect(await r.sync.now()).toMatchObject({ state: 'offline', pending: 1 });
    vi.unstubAllGlobals();
    expect(await db().reviewComment.count({ where: { reviewId, body: 'The title reads well.' } })).toBe(1);
    const [sent] = cores.reviewer!.outbox.items(['pending']);

    await cores.reviewer!.close();
    const reopened = open('reviewer');
    expect(await reopened.sync.status()).toMatchObject({ pending: 1, items: [{ seq: sent!.seq, attempts: 1 }] });
    expect(await reopened.sync.now()).toMatchObject({ state: 'synced', pending: 0 });
    const rows = await db().reviewComment.findMany({ where: { reviewId, body: 'The title reads well.' } });
    expect(rows).toHaveLength(1);
    expect(cores.reviewer!.outbox.item(sent!.seq)).toMatchObject({ state: 'done', attempts: 2, result: { commentId: rows[0]!.id } });
    expect((await reopened.reviews.get({ projectId, reviewId })).comments.map((c) => c.body)).toEqual(['Say what changed.', 'The title reads well.']);
  });

  it('pushes what was pending when the app was closed, in order, after a restart', async () => {
    const r = caller('reviewer');
    await r.reviews.requestChanges({ projectId, reviewId });
    await r.reviews.comment({ projectId, reviewId, path: 'index.mdx', lineStart: 5, lineEnd: 5, body: 'Shorter, please.' });
    await cores.reviewer!.close();
    const reopened = open('reviewer');
    const status = await reopened.sync.status();
    expect(status.items.map((i) => i.type)).toEqual(['review.setStatus', 'review.comment']);
    expect((await reopened.reviews.get({ projectId, reviewId })).status).toBe('changes_requested');
    expect(await reopened.sync.now()).toMatchObject({ pending: 0 });
    expect((await db().review.findUniqueOrThrow({ where: { id: reviewId } })).status).toBe('changes_requested');
    expect(await db().reviewComment.count({ where: { reviewId, body: 'Shorter, please.' } })).toBe(1);
  });
});

describe('desktop sync: conflict rules as the desktop shows them', () => {
  let second: string;

  it('refuses an approval and a comment made offline on a review closed meanwhile, shows the reason and keeps the comment text', async () => {
    const w = caller('writer');
    await w.files.write({ projectId, path: 'guides/setup.mdx', content: '---\ntitle: Setting up\n---\n\nInstall the tool with pnpm.\n' });
    await w.reviews.propose({ projectId, title: 'Setup with pnpm', reviewers: [reviewerId], paths: ['guides/setup.mdx'] });
    await w.sync.now();
    second = (await w.reviews.list({ projectId })).items.find((x) => x.title === 'Setup with pnpm')!.id;
    const r = caller('reviewer');
    await r.sync.now();

    // offline on the reviewer's side (nothing synced), the author closes the review on the server
    await r.reviews.comment({ projectId, reviewId: second, path: 'guides/setup.mdx', lineStart: 5, lineEnd: 5, body: 'Mention npm too.' });
    await r.reviews.approve({ projectId, reviewId: second });
    await (await callerFor(t.ctx, writerToken)).reviews.update({ projectId, reviewId: second, patch: { status: 'closed' } });

    const status = await r.sync.now();
    expect(status).toMatchObject({ state: 'synced', pending: 0 });
    expect(status.items.map((i) => [i.type, i.state])).toEqual([
      ['review.comment', 'refused'],
      ['review.setStatus', 'refused'],
    ]);
    expect(status.items[0]!.reason).toMatch(/^The review was closed by .*; your comment was kept on this device and not posted\.$/);
    expect(status.items[1]!.reason).toMatch(/your approval was kept on this device and not applied/);
    const detail = await r.reviews.get({ projectId, reviewId: second });
    expect(detail).toMatchObject({ status: 'closed', problem: status.items[1]!.reason });
    expect(detail.comments).toEqual([expect.objectContaining({ body: 'Mention npm too.', pending: false, problem: status.items[0]!.reason })]);
    expect(await db().reviewComment.count({ where: { reviewId: second } })).toBe(0);
    expect(await approvalsOf(second)).toBe(0);

    // the person puts the refused items away
    await r.sync.dismiss({ seq: status.items[0]!.seq });
    expect((await r.sync.status()).items).toHaveLength(1);
    expect((await r.reviews.get({ projectId, reviewId: second })).comments).toEqual([]);
  });

  it('refuses here at once a move the review rules forbid (the author approving their own review)', async () => {
    const err = await errorOf(caller('writer').reviews.approve({ projectId, reviewId }));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toMatch(/Only a reviewer other than the author/);
  });

  it('refuses an approval of a revision older than the one on the server (the changes were updated meanwhile)', async () => {
    const w = caller('writer');
    const r = caller('reviewer');
    await r.sync.now();
    expect((await r.reviews.get({ projectId, reviewId })).revision).toBe(1);
    // the author updates the change set; the reviewer approves what they saw, without pulling first
    await w.files.write({ projectId, path: 'index.mdx', content: '---\ntitle: Welcome home\n---\n\nThird version of the welcome page.\n' });
    expect(await w.reviews.updateChanges({ projectId, reviewId })).toMatchObject({ pending: true, revision: 2, status: 'open' });
    await w.sync.now();
    expect((await db().review.findUniqueOrThrow({ where: { id: reviewId } })).revision).toBe(2);
    // changes_requested → approved, seen at revision 1
    await r.reviews.approve({ projectId, reviewId });
    const status = await r.sync.now();
    const refused = status.items.find((i) => i.type === 'review.setStatus' && i.state === 'refused' && /revision 1/.test(i.reason ?? ''));
    expect(refused?.reason).toMatch(/you saw revision 1, it is now at revision 2/);
    const detail = await r.reviews.get({ projectId, reviewId });
    expect(detail).toMatchObject({ revision: 2, status: 'open', problem: refused!.reason });
    expect(detail.files[0]).toMatchObject({ after: expect.stringContaining('Third version') });
    expect(await approvalsOf(reviewId)).toBe(1);
  });
});
