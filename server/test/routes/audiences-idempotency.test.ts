/**
 * Token generation with `Idempotency-Key` (interface-spec.md "Conventions", "Audience access token":
 * the token "cannot be retrieved again"): a retry replays the original status without issuing a
 * second token, and neither the replay nor the stored idempotency record holds the token, neither
 * as `token` nor inside `magicLink` (the route's `config.oneTimeSecret`; the answer has no `data`
 * envelope).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import { audienceApi, createProfile, createProject, placesHolding } from './audiences-fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('POST .../audiences/{profileId}/token with Idempotency-Key', () => {
  it('replays without a second token and without the secret, and stores no copy of it', async () => {
    const api = audienceApi(t.app, t.adminKey);
    const projectId = await createProject(t.app, t.adminKey, 'idempotent-token');
    const profileId = await createProfile(t.app, t.adminKey, projectId, 'replayed');
    const headers = { 'idempotency-key': 'token-once' };
    const first = await api.token(projectId, profileId, { label: 'once' }, headers);
    expect(first.statusCode).toBe(201);
    const { token } = first.json() as { token: string };
    const signature = token.split('.')[1]!;

    const replay = await api.token(projectId, profileId, { label: 'once' }, headers);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    const replayed = replay.json() as Record<string, unknown>;
    expect(replayed).toMatchObject({ label: 'once', audiences: ['partners'], expiresAt: first.json().expiresAt });
    expect(JSON.stringify(replayed)).not.toContain(signature);
    expect(await t.ctx.db.prisma.audienceToken.count({ where: { profileId } })).toBe(1);
    expect(await placesHolding(t.ctx, signature)).toEqual([]);
  });
});
