/**
 * Audience token verification (services/audience-tokens.ts; interface-spec.md "States and
 * transitions > Audience token"; decisions.md section 6): tokens issued through HTTP open their
 * profile's current tags; tampered, foreign, expired, revoked and garbage tokens open nothing with
 * the right reason; deleting a profile or changing its tags takes effect at once, in this process
 * and, through Redis events, in another process of the installation.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { createTestApp, type TestApp } from '../helpers/app';
import { requireRedis } from '../helpers/services';
import { deletePrefix } from '../events/two-apps';
import { sharedStore, type SharedStore } from '../jobs/schedule-fixture';
import type { EventBus, QuireEvents } from '../../src/events';
import { AUDIENCE_TOKEN_MAX_LENGTH, issueAudienceToken, signAudienceToken, verifyAudienceToken, verifyAudienceTokenCached } from '../../src/services/audience-tokens';
import { audienceApi, createProfile, createProject } from '../routes/audiences-fixture';

let t: TestApp;
let api: ReturnType<typeof audienceApi>;
let projectId: string;
let otherProjectId: string;
beforeAll(async () => {
  t = await createTestApp();
  api = audienceApi(t.app, t.adminKey);
  projectId = await createProject(t.app, t.adminKey, 'gated');
  otherProjectId = await createProject(t.app, t.adminKey, 'gated-other');
});
afterAll(async () => t?.close());

/** A token for a new profile with `tags`, through the API. */
async function issued(tags = ['partner'], pid = projectId, body: Record<string, unknown> = {}) {
  const profileId = await createProfile(t.app, t.adminKey, pid, `p-${randomUUID().slice(0, 8)}`, tags);
  const res = await api.token(pid, profileId, body);
  expect(res.statusCode).toBe(201);
  return { profileId, token: res.json().token as string, expiresAt: res.json().expiresAt as string | null };
}

const verify = (token: string, pid = projectId) => verifyAudienceToken(t.ctx, pid, token);
const refusal = async (token: string, pid = projectId) => {
  const result = await verify(token, pid);
  expect(result.ok).toBe(false);
  return result.ok ? null : result.reason;
};

/** The token's payload, decoded. */
const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
/** The token with its payload replaced (the signature kept). */
const withPayload = (token: string, payload: Record<string, unknown>) => `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${token.split('.')[1]}`;

describe('verifyAudienceToken', () => {
  it('opens the profile tags of a token issued through the API', async () => {
    const { profileId, token, expiresAt } = await issued(['partner', 'beta']);
    const result = await verify(token);
    expect(result).toEqual({
      ok: true,
      grant: { profileId, tokenId: payloadOf(token).j, tags: ['partner', 'beta'], expiresAt: new Date(expiresAt!) },
    });
    expect(await verify(`  ${token}\n`)).toMatchObject({ ok: true });
  });

  it('opens a never-expiring token with expiresAt null', async () => {
    const { token } = await issued(['a'], projectId, { expiresIn: 'never' });
    expect(await verify(token)).toMatchObject({ ok: true, grant: { expiresAt: null } });
  });

  it('refuses a token whose payload was altered, keeping its signature', async () => {
    const { token } = await issued();
    const payload = payloadOf(token);
    const other = await issued(['secret-tag']);
    expect(await refusal(withPayload(token, { ...payload, a: payloadOf(other.token).a }))).toBe('bad_signature');
    expect(await refusal(withPayload(token, { ...payload, e: null }))).toBe('bad_signature');
    expect(await refusal(withPayload(token, { ...payload, j: 'x'.repeat(22) }))).toBe('bad_signature');
    // One bit flipped in the encoded payload
    const [part, sig] = token.split('.') as [string, string];
    const bytes = Buffer.from(part, 'base64url');
    bytes[10] = bytes[10]! ^ 0x01;
    expect(['bad_signature', 'malformed']).toContain(await refusal(`${bytes.toString('base64url')}.${sig}`));
  });

  it('refuses a changed, truncated, lengthened or non-canonical signature', async () => {
    const { token } = await issued();
    const [part, sig] = token.split('.') as [string, string];
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    expect(await refusal(`${part}.${flip(sig[0]!)}${sig.slice(1)}`)).toBe('bad_signature');
    expect(await refusal(`${part}.${sig.slice(0, -1)}`)).toBe('bad_signature');
    expect(await refusal(`${part}.${sig}A`)).toBe('bad_signature');
    // The last character of 43 carries 4 data bits and 2 padding bits: another character with the
    // same data bits decodes to the same bytes, and must still be refused (one encoding per token).
    const last = sig.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!;
    expect(Buffer.from(`${sig.slice(0, -1)}${sibling}`, 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
    expect(await refusal(`${part}.${sig.slice(0, -1)}${sibling}`)).toBe('bad_signature');
    expect(await refusal(`${part}.`)).toBe('malformed');
    expect(await refusal(part)).toBe('malformed');
  });

  it("refuses another project's token, also when relabelled for this project", async () => {
    const foreign = await issued(['partner'], otherProjectId);
    expect(await refusal(foreign.token)).toBe('other_project');
    expect(await refusal(withPayload(foreign.token, { ...payloadOf(foreign.token), p: projectId }))).toBe('bad_signature');
    expect(await verify(foreign.token, otherProjectId)).toMatchObject({ ok: true });
  });

  it('refuses a token signed with a key of our own making', async () => {
    const { token } = await issued();
    const forged = signAudienceToken(Buffer.alloc(32, 7), payloadOf(token) as never);
    expect(forged.split('.')[0]).toBe(token.split('.')[0]);
    expect(await refusal(forged)).toBe('bad_signature');
  });

  it('refuses garbage of any length and shape as malformed', async () => {
    const { token } = await issued();
    const json = (v: unknown) => `${Buffer.from(JSON.stringify(v)).toString('base64url')}.${token.split('.')[1]}`;
    const garbage = [
      '',
      'abc',
      '.',
      '..',
      'a.b.c',
      `${token}.${token.split('.')[1]}`,
      'é.ü',
      '\u0000.\u0000',
      'x'.repeat(AUDIENCE_TOKEN_MAX_LENGTH + 1),
      'x'.repeat(1_000_000),
      `${token}${' '.repeat(AUDIENCE_TOKEN_MAX_LENGTH)}`,
      `${Buffer.from('not json').toString('base64url')}.abc`,
      json(null),
      json([1, 2]),
      json('string'),
      json({ ...payloadOf(token), v: 2 }),
      json({ ...payloadOf(token), e: -5 }),
      json({ ...payloadOf(token), e: 1.5 }),
      json({ ...payloadOf(token), e: '2030' }),
      json({ ...payloadOf(token), a: 42 }),
      json({ ...payloadOf(token), p: 'prj_"quote' }),
      json({ v: 1 }),
    ];
    for (const g of garbage) expect(await refusal(g), JSON.stringify(g.slice(0, 40))).toBe('malformed');
    for (const g of [null, undefined, 42, {}]) expect(await refusal(g as unknown as string)).toBe('malformed');
  });

  it('refuses an expired token (issued with a past expiry through the service)', async () => {
    const profileId = await createProfile(t.app, t.adminKey, projectId, 'expiring');
    const issue = (expiresAt: Date) => issueAudienceToken(t.ctx, { orgId: t.app.bootstrap.orgId!, projectId, profileId, expiresAt, label: null, auth: null });
    const past = await issue(new Date(Date.now() - 1_000));
    expect(await refusal(past.token)).toBe('expired');
    const future = await issue(new Date(Date.now() + 60_000));
    expect(await verify(future.token)).toMatchObject({ ok: true });
  });

  it('kills every token of a deleted profile at once', async () => {
    const { profileId, token } = await issued();
    const second = (await api.token(projectId, profileId)).json().token as string;
    expect(await verify(token)).toMatchObject({ ok: true });
    expect((await api.remove(projectId, profileId)).statusCode).toBe(200);
    expect(await refusal(token)).toBe('profile_deleted');
    expect(await refusal(second)).toBe('profile_deleted');
  });

  it('opens the new tags at once when the profile tags change', async () => {
    const { profileId, token } = await issued(['old']);
    expect(await verify(token)).toMatchObject({ ok: true, grant: { tags: ['old'] } });
    expect((await api.update(projectId, profileId, { audiences: ['new', 'more'] })).statusCode).toBe(200);
    expect(await verify(token)).toMatchObject({ ok: true, grant: { tags: ['new', 'more'] } });
  });

  it('refuses a token whose record is gone as revoked, before and after it was cached', async () => {
    const a = await issued();
    await t.ctx.db.prisma.audienceToken.delete({ where: { id: payloadOf(a.token).j as string } });
    expect(await refusal(a.token)).toBe('revoked');

    const b = await issued();
    expect(await verify(b.token)).toMatchObject({ ok: true });
    await t.ctx.db.prisma.audienceToken.delete({ where: { id: payloadOf(b.token).j as string } });
    t.ctx.events.emit('audience.changed', { projectId, profileId: b.profileId });
    expect(await refusal(b.token)).toBe('revoked');
  });

  it('serves a known token from memory: a silent database change is seen only after its event', async () => {
    const { profileId, token } = await issued(['cached']);
    expect(await verify(token)).toMatchObject({ ok: true, grant: { tags: ['cached'] } });
    await t.ctx.db.prisma.audienceProfile.update({ where: { id: profileId }, data: { audiences: JSON.stringify(['silent']) } });
    expect(await verify(token)).toMatchObject({ ok: true, grant: { tags: ['cached'] } });
    t.ctx.events.emit('audience.changed', { projectId, profileId });
    expect(await verify(token)).toMatchObject({ ok: true, grant: { tags: ['silent'] } });
  });

  it('answers a verified token synchronously from memory until its profile changes or is deleted', async () => {
    const { profileId, token } = await issued(['sync']);
    expect(verifyAudienceTokenCached(t.ctx, projectId, token)).toBeUndefined();
    expect(await verify(token)).toMatchObject({ ok: true });
    expect(verifyAudienceTokenCached(t.ctx, projectId, token)).toMatchObject({ ok: true, grant: { profileId, tags: ['sync'] } });
    expect(verifyAudienceTokenCached(t.ctx, otherProjectId, token)).toBeUndefined();
    expect((await api.update(projectId, profileId, { audiences: ['changed'] })).statusCode).toBe(200);
    expect(verifyAudienceTokenCached(t.ctx, projectId, token)).toBeUndefined();
    expect(await verify(token)).toMatchObject({ ok: true, grant: { tags: ['changed'] } });
    expect((await api.remove(projectId, profileId)).statusCode).toBe(200);
    expect(verifyAudienceTokenCached(t.ctx, projectId, token)).toBeUndefined();
    expect(await refusal(token)).toBe('profile_deleted');
  });

  it('forgets cached profiles after a reconnection (events may have been missed)', async () => {
    const { profileId, token } = await issued(['before']);
    expect(await verify(token)).toMatchObject({ ok: true });
    await t.ctx.db.prisma.audienceProfile.delete({ where: { id: profileId } });
    expect(await verify(token)).toMatchObject({ ok: true });
    t.ctx.events.emit('reconnected');
    expect(await refusal(token)).toBe('profile_deleted');
  });

  it('refuses tokens of a deleted project', async () => {
    const pid = await createProject(t.app, t.adminKey, 'gated-doomed');
    const { token } = await issued(['x'], pid);
    expect(await verify(token, pid)).toMatchObject({ ok: true });
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/projects/${pid}`, headers: { authorization: `Bearer ${t.adminKey}` } })).statusCode).toBe(204);
    expect(await refusal(token, pid)).toBe('bad_signature');
  });
});

const redis = await requireRedis();

/** Every `audience.changed` `bus` hears from now on, and a wait for a count of them about one profile. */
function audienceEvents(bus: EventBus) {
  const seen: QuireEvents['audience.changed'][0][] = [];
  bus.on('audience.changed', (payload) => seen.push(payload));
  return {
    /** Resolves once `count` events about `profileId` were heard (polling; fails after 5 s). */
    async heard(profileId: string, count: number): Promise<void> {
      const deadline = Date.now() + 5_000;
      while (seen.filter((e) => e.profileId === profileId).length < count) {
        if (Date.now() > deadline) throw new Error(`heard ${seen.filter((e) => e.profileId === profileId).length} of ${count} audience.changed for ${profileId}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

describe.skipIf(!redis)('two server processes sharing a database and Redis events', () => {
  const prefix = `quire-test-${randomUUID().slice(0, 8)}`;
  let store: SharedStore;
  let a: FastifyInstance;
  let b: FastifyInstance;
  beforeAll(async () => {
    store = await sharedStore({ REDIS_URL: redis!.url, QUIRE_QUEUE_PREFIX: prefix });
    a = await store.open();
    b = await store.open();
  });
  afterAll(async () => {
    await store?.cleanup();
    const conn = new Redis(redis!.url);
    await deletePrefix(conn, prefix);
    conn.disconnect();
  });

  it('a token issued by one process opens in the other, which sees tag changes and deletion at once', async () => {
    const key = store.adminKey();
    const onA = audienceApi(a, key);
    const onB = audienceEvents(b.ctx.events);
    const pid = await createProject(a, key, 'two-process-gated');
    const profileId = await createProfile(a, key, pid, 'shared', ['first']);
    const token = (await onA.token(pid, profileId)).json().token as string;
    // Once B has heard the creation and the issue, it reads the token and keeps the profile in memory.
    await onB.heard(profileId, 2);
    expect(await verifyAudienceToken(b.ctx, pid, token)).toMatchObject({ ok: true, grant: { tags: ['first'] } });
    await b.ctx.db.prisma.audienceProfile.update({ where: { id: profileId }, data: { audiences: JSON.stringify(['silent']) } });
    expect(await verifyAudienceToken(b.ctx, pid, token)).toMatchObject({ ok: true, grant: { tags: ['first'] } });

    expect((await onA.update(pid, profileId, { audiences: ['second'] })).statusCode).toBe(200);
    await onB.heard(profileId, 3);
    expect(await verifyAudienceToken(b.ctx, pid, token)).toMatchObject({ ok: true, grant: { tags: ['second'] } });

    expect((await onA.remove(pid, profileId)).statusCode).toBe(200);
    await onB.heard(profileId, 4);
    expect(await verifyAudienceToken(b.ctx, pid, token)).toEqual({ ok: false, reason: 'profile_deleted' });
  });
});
