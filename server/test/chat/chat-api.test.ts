/**
 * The assistant through the API (decisions.md section 7; interface-spec.md "Chat session and
 * message", "Chat conversation history"): `POST /v1/projects/{projectId}/chat` answers from the
 * deployed docs with citations, as JSON or a server-sent stream; gated pages only for a token that
 * opens them; unanswerable questions say so and count as content gaps; conversations belong to
 * their visitor; the history routes' upper-case errors; the assistant switched off; the per-IP
 * limit; the monthly plan limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGES_LISTED, MAX_SESSIONS_LISTED, type ChatAnswer } from '@quire/shared/api/chat';
import { usagePeriodOf } from '@quire/shared/api/usage';
import { bearer, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { issueToken } from '../sites/gate-fixture';
import { NOT_IN_DOCS_ANSWER } from '../../src/chat/answerer';
import { apiAsk, chatDocsRepo, deployChatProject, parseEvents, QUESTIONS, streamed } from './chat-fixture';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let partnerToken: string;
const siteRoot = () => `http://chat-api-docs.localhost:${t.ctx.config.port}`;

const ask = async (payload: Record<string, unknown>, headers: Record<string, string> = {}): Promise<ChatAnswer> => {
  const res = await apiAsk(t, projectId, payload, headers);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: ChatAnswer }).data;
};
const history = (path: string, query = '') => t.app.inject({ url: `/v1/projects/${projectId}/chat/sessions${path}${query}` });

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = chatDocsRepo();
  ({ projectId } = await deployChatProject(t, repo, 'chat-api'));
  partnerToken = (await issueToken(t, projectId, 'partners', ['partners'])).token;
}, 120_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('POST /v1/projects/{projectId}/chat', () => {
  it('answers from the right section with a citation and an absolute source URL, without an API key', async () => {
    const answer = await ask({ question: QUESTIONS.retries.question, visitorId: 'v-answer' });
    expect(answer.message.role).toBe('assistant');
    expect(answer.message.content).toContain('maxAttempts');
    expect(answer.message.content).toMatch(/\[1\]/);
    expect(answer.sources[0]).toEqual({ title: 'Retrying failed tasks', path: 'retries', url: `${siteRoot()}/retries#configure-retries` });
    expect(answer.message.sources).toEqual(answer.sources);
  });

  it('streams session, sources, deltas and done; the deltas make the stored message', async () => {
    const res = await apiAsk(t, projectId, { question: QUESTIONS.payload.question, visitorId: 'v-stream' }, { accept: 'text/event-stream' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(res.headers['cache-control']).toBe('no-store');
    const events = parseEvents(res.body);
    const names = events.map((e) => e.event);
    expect(names[0], res.body).toBe('session');
    expect(names[1]).toBe('sources');
    expect(names.at(-1)).toBe('done');
    expect(names.slice(2, -1).every((n) => n === 'delta')).toBe(true);
    expect(names.length).toBeGreaterThan(3);
    const { answer, deltas } = streamed(events);
    expect(deltas).toBe(answer.message.content);
    expect(answer.message.content).toContain('10 MB');
    expect(answer.sources.map((s) => s.path)).toContain('limits');
    expect(events[0]!.data).toEqual({ sessionId: answer.sessionId });
    const transcript = await history(`/${answer.sessionId}`, '?visitorId=v-stream');
    expect(transcript.json().data.messages.map((m: { content: string }) => m.content)).toEqual([QUESTIONS.payload.question, deltas]);
  });

  it('keeps the Idempotency-Key of a streamed answer: a retry gets the same answer as JSON, asked once', async () => {
    const key = 'chat-stream-retry-1';
    const payload = { question: QUESTIONS.payload.question, visitorId: 'v-idem' };
    const first = await apiAsk(t, projectId, payload, { accept: 'text/event-stream', 'idempotency-key': key }, '198.51.100.77');
    expect(first.statusCode).toBe(200);
    const { answer } = streamed(parseEvents(first.body));
    const retry = await apiAsk(t, projectId, payload, { accept: 'text/event-stream', 'idempotency-key': key }, '198.51.100.77');
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotency-replayed']).toBe('true');
    expect(retry.json().data).toEqual(answer);
    const transcript = await history(`/${answer.sessionId}`, '?visitorId=v-idem');
    expect(transcript.json().data.messages).toHaveLength(2);
  });

  it('never cites a gated page without a token, and cites it with a token that opens it', async () => {
    const without = await ask({ question: QUESTIONS.partner.question, visitorId: 'v-gate' });
    expect(without.sources.map((s) => s.path)).not.toContain('partners');
    expect(without.message.content).not.toContain('40 percent');
    const forged = await ask({ question: QUESTIONS.partner.question, visitorId: 'v-gate' }, { 'x-audience-token': 'forged.token' });
    expect(forged.sources.map((s) => s.path)).not.toContain('partners');
    const withToken = await ask({ question: QUESTIONS.partner.question, visitorId: 'v-gate' }, { 'x-audience-token': partnerToken });
    expect(withToken.sources.map((s) => s.path)).toContain('partners');
    expect(withToken.message.content).toContain('40 percent');
  });

  it('never cites a page the site\'s access rules close to the asker\'s address', async () => {
    const rule = await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/access-rules`, headers: bearer(t.adminKey), payload: { name: 'office only', pathPattern: 'limits', cidrs: ['10.77.0.0/16'] } });
    expect(rule.statusCode, rule.body).toBe(201);
    try {
      const outside = (await apiAsk(t, projectId, { question: QUESTIONS.payload.question, visitorId: 'v-rule' }, {}, '192.0.2.10')).json().data as ChatAnswer;
      expect(outside.sources.map((s) => s.path)).not.toContain('limits');
      expect(outside.message.content).not.toContain('10 MB');
      const inside = (await apiAsk(t, projectId, { question: QUESTIONS.payload.question, visitorId: 'v-rule' }, {}, '10.77.0.5')).json().data as ChatAnswer;
      expect(inside.sources.map((s) => s.path)).toContain('limits');
    } finally {
      await t.app.inject({ method: 'DELETE', url: `/v1/projects/${projectId}/access-rules/${(rule.json().data as { id: string }).id}`, headers: bearer(t.adminKey) });
    }
  });

  it('says plainly when the docs do not answer, cites nothing and counts a content gap', async () => {
    const answer = await ask({ question: QUESTIONS.unanswerable, visitorId: 'v-gap' });
    expect(answer.message.content).toBe(NOT_IN_DOCS_ANSWER);
    expect(answer.message.content).toContain('not in the docs');
    expect(answer.sources).toEqual([]);
    await t.ctx.search.gaps.settle();
    const gaps = await t.ctx.db.prisma.contentGap.findMany({ where: { projectId, source: 'ai_chat' } });
    expect(gaps.map((g) => g.topic)).toContain(QUESTIONS.unanswerable.toLowerCase());
  });

  it('continues a conversation of the same visitor, and refuses one of another visitor', async () => {
    const first = await ask({ question: QUESTIONS.retries.question, visitorId: 'v-conv' });
    const second = await ask({ question: QUESTIONS.payload.question, visitorId: 'v-conv', sessionId: first.sessionId });
    expect(second.sessionId).toBe(first.sessionId);
    const stolen = await apiAsk(t, projectId, { question: QUESTIONS.payload.question, visitorId: 'v-thief', sessionId: first.sessionId });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().error.code).toBe('not_found');
    const messages = (await history(`/${first.sessionId}`, '?visitorId=v-conv')).json().data.messages as { role: string }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it.each([
    [{ visitorId: 'v' }, 'question'],
    [{ question: '   ', visitorId: 'v' }, 'question'],
    [{ question: 'x'.repeat(2001), visitorId: 'v' }, 'question'],
    [{ question: 'Retries?' }, 'visitorId'],
    [{ question: 'Retries?', visitorId: 'v'.repeat(101) }, 'visitorId'],
    [{ question: 'Retries?', visitorId: 'v', sessionId: 'not-a-uuid' }, 'sessionId'],
    [{ question: 'Retries?', visitorId: 'v', extra: 1 }, 'extra'],
    [{ question: 'Retries\u0000?', visitorId: 'v' }, 'question'],
  ])('refuses a bad body %j with 400 naming %s, storing nothing', async (payload, field) => {
    const before = await t.ctx.db.prisma.chatMessage.count();
    const res = await apiAsk(t, projectId, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_request', details: { field } });
    expect(await t.ctx.db.prisma.chatMessage.count()).toBe(before);
  });

  it('answers 404 for an unknown version and an unknown project', async () => {
    const version = await apiAsk(t, projectId, { question: QUESTIONS.retries.question, visitorId: 'v', version: 'nope' });
    expect(version.statusCode).toBe(404);
    const project = await t.app.inject({ method: 'POST', url: '/v1/projects/prj_missing/chat', payload: { question: 'Retries?', visitorId: 'v' } });
    expect(project.statusCode).toBe(404);
    expect(project.json().error.code).toBe('not_found');
  });

  it('answers 404 on the ask and the history while aiEnabled is false', async () => {
    const off = await t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey), payload: { settings: { aiEnabled: false } } });
    expect(off.statusCode).toBe(200);
    try {
      const res = await apiAsk(t, projectId, { question: QUESTIONS.retries.question, visitorId: 'v-off' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
      const streamedOff = await apiAsk(t, projectId, { question: QUESTIONS.retries.question, visitorId: 'v-off' }, { accept: 'text/event-stream' });
      expect(streamedOff.statusCode).toBe(404);
      expect(streamedOff.headers['content-type']).toContain('application/json');
      expect((await history('', '?visitorId=v-off')).statusCode).toBe(404);
      expect(await t.ctx.db.prisma.chatSession.count({ where: { visitorId: 'v-off' } })).toBe(0);
    } finally {
      await t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey), payload: { settings: { aiEnabled: true } } });
    }
  });

  it('limits questions per client address and project: 429 rate_limited with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await apiAsk(t, projectId, { question: QUESTIONS.payload.question, visitorId: 'v-rate' }, {}, '10.9.9.9')).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    const refused = await apiAsk(t, projectId, { question: QUESTIONS.payload.question, visitorId: 'v-rate' }, {}, '10.9.9.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await apiAsk(t, projectId, { question: QUESTIONS.payload.question, visitorId: 'v-rate' }, {}, '10.9.9.10')).statusCode).toBe(200);
  });

  it('refuses past the monthly plan limit with 403 usage_limit_exceeded, storing nothing', async () => {
    const org = await createOrgWithKey(t, { plan: 'free' });
    const created = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(org.key), payload: { name: 'Free chat', slug: 'free-chat' } });
    expect(created.statusCode).toBe(201);
    const freeProject = (created.json().data as { id: string }).id;
    const { period } = usagePeriodOf(new Date());
    await t.ctx.db.prisma.usageCounter.create({ data: { orgId: org.orgId, metric: 'assistant_answers', period, count: 199 } });
    const last = await apiAsk(t, freeProject, { question: 'Anything?', visitorId: 'v-free' });
    expect(last.statusCode).toBe(200);
    for (const accept of ['application/json', 'text/event-stream']) {
      const res = await apiAsk(t, freeProject, { question: 'One more?', visitorId: 'v-free' }, { accept });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'usage_limit_exceeded', details: { metric: 'assistant_answers', limit: 200, used: 200 } });
    }
    const sessions = (await t.app.inject({ url: `/v1/projects/${freeProject}/chat/sessions?visitorId=v-free` })).json().data.sessions as unknown[];
    expect(sessions).toHaveLength(1);
    expect(await t.ctx.db.prisma.chatMessage.count({ where: { content: 'One more?' } })).toBe(0);
  });
});

describe('CORS for the project\'s site', () => {
  it('answers the preflight and the ask (JSON and stream) with the site origin allowed; other origins get none', async () => {
    const origin = siteRoot();
    const preflight = await t.app.inject({ method: 'OPTIONS', url: `/v1/projects/${projectId}/chat`, headers: { origin, 'access-control-request-method': 'POST' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    const json = await apiAsk(t, projectId, { question: QUESTIONS.retries.question, visitorId: 'v-cors' }, { origin });
    expect(json.headers['access-control-allow-origin']).toBe(origin);
    const stream = await apiAsk(t, projectId, { question: QUESTIONS.retries.question, visitorId: 'v-cors' }, { origin, accept: 'text/event-stream' });
    expect(stream.headers['access-control-allow-origin']).toBe(origin);
    expect(stream.headers['x-ratelimit-limit']).toBeDefined();
    const list = await history('', '?visitorId=v-cors');
    expect(list.statusCode).toBe(200);
    const foreign = await apiAsk(t, projectId, { question: QUESTIONS.retries.question, visitorId: 'v-cors' }, { origin: 'http://evil.example', accept: 'text/event-stream' });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('conversation history', () => {
  it('lists a visitor\'s sessions newest first, titled by the first question, at most 50', async () => {
    const a = await ask({ question: QUESTIONS.retries.question, visitorId: 'v-list' });
    const b = await ask({ question: QUESTIONS.payload.question, visitorId: 'v-list' });
    const res = await history('', '?visitorId=v-list');
    expect(res.statusCode).toBe(200);
    const sessions = res.json().data.sessions as { id: string; title: string; createdAt: string }[];
    expect(sessions.map((s) => s.id)).toEqual([b.sessionId, a.sessionId]);
    expect(sessions[1]!.title).toBe(QUESTIONS.retries.question);
    expect(Date.parse(sessions[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(sessions[1]!.createdAt));
    // many sessions: the newest 50
    const base = Date.now() - 1_000_000;
    await t.ctx.db.prisma.chatSession.createMany({
      data: Array.from({ length: 55 }, (_, i) => ({ id: crypto.randomUUID(), projectId, visitorId: 'v-many', title: `q${i}`, createdAt: new Date(base + i * 1000), updatedAt: new Date(base + i * 1000) })),
    });
    const many = (await history('', '?visitorId=v-many')).json().data.sessions as { title: string }[];
    expect(many).toHaveLength(MAX_SESSIONS_LISTED);
    expect(many[0]!.title).toBe('q54');
    expect(many.at(-1)!.title).toBe('q5');
  });

  it('returns a transcript oldest first, the latest 100 messages', async () => {
    const id = crypto.randomUUID();
    const base = Date.now() - 1_000_000;
    await t.ctx.db.prisma.chatSession.create({ data: { id, projectId, visitorId: 'v-long', title: 'long' } });
    await t.ctx.db.prisma.chatMessage.createMany({
      data: Array.from({ length: 120 }, (_, i) => ({ id: crypto.randomUUID(), sessionId: id, role: i % 2 ? 'assistant' : 'user', content: `m${i}`, createdAt: new Date(base + i * 1000) })),
    });
    const messages = (await history(`/${id}`, '?visitorId=v-long')).json().data.messages as { content: string; id: string; role: string; createdAt: string }[];
    expect(messages).toHaveLength(MAX_MESSAGES_LISTED);
    expect(messages[0]!.content).toBe('m20');
    expect(messages.at(-1)!.content).toBe('m119');
    expect(Object.keys(messages[0]!).sort()).toEqual(['content', 'createdAt', 'id', 'role']);
  });

  it('answers 404 NOT_FOUND for another visitor\'s, another project\'s or a missing session', async () => {
    const mine = await ask({ question: QUESTIONS.retries.question, visitorId: 'v-owner' });
    const other = await history(`/${mine.sessionId}`, '?visitorId=v-other');
    expect(other.statusCode).toBe(404);
    expect(other.json().error.code).toBe('NOT_FOUND');
    const missing = await history(`/${crypto.randomUUID()}`, '?visitorId=v-owner');
    expect(missing.json().error.code).toBe('NOT_FOUND');
    const created = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Other chat', slug: 'other-chat' } });
    const otherProject = (created.json().data as { id: string }).id;
    const cross = await t.app.inject({ url: `/v1/projects/${otherProject}/chat/sessions/${mine.sessionId}?visitorId=v-owner` });
    expect(cross.statusCode).toBe(404);
    expect(cross.json().error.code).toBe('NOT_FOUND');
    expect((await t.app.inject({ url: `/v1/projects/${otherProject}/chat/sessions?visitorId=v-owner` })).json().data.sessions).toEqual([]);
  });

  it.each([
    ['', ''],
    ['', '?visitorId='],
    ['', `?visitorId=${'v'.repeat(101)}`],
    ['/not-a-uuid', '?visitorId=v'],
    ['/00000000-0000-0000-0000-000000000000', ''],
  ])('answers 400 INVALID_REQUEST for %s%s', async (path, query) => {
    const res = await history(path, query);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('INVALID_REQUEST');
  });
});
