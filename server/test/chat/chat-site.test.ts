/**
 * The site's assistant endpoints under `/_quire/chat` (decisions.md sections 6 and 7): the Ask AI
 * panel's enabled check, asks (JSON and server-sent events) answered from the served deployment
 * with path-relative source URLs, gated pages only for a token that opens them (header or cookie),
 * the visitor's history with the spec's upper-case errors, 405 with `Allow`, and 404 everywhere
 * while the project's assistant is off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAnswer } from '@quire/shared/api/chat';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { issueToken } from '../sites/gate-fixture';
import { chatDocsRepo, deployChatProject, nextAddress, parseEvents, QUESTIONS, streamed } from './chat-fixture';

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;
let host: string;
let partnerToken: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
const site = (method: Method, url: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { host, ...(payload ? { 'content-type': 'application/json' } : {}), ...headers }, remoteAddress: nextAddress(), ...(payload ? { payload } : {}) });
const ask = async (payload: Record<string, unknown>, headers: Record<string, string> = {}): Promise<ChatAnswer> => {
  const res = await site('POST', '/_quire/chat', payload, headers);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: ChatAnswer }).data;
};

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  repo = chatDocsRepo();
  ({ projectId, host } = await deployChatProject(t, repo, 'chat-site'));
  partnerToken = (await issueToken(t, projectId, 'partners', ['partners'])).token;
}, 120_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('site assistant', () => {
  it('tells the panel the assistant is on', async () => {
    const res = await site('GET', '/_quire/chat');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { enabled: true } });
  });

  it('answers with a citation and a path-relative source URL, never cached', async () => {
    const res = await site('POST', '/_quire/chat', { question: QUESTIONS.retries.question, visitorId: 'site-v1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const answer = (res.json() as { data: ChatAnswer }).data;
    expect(answer.message.content).toContain('maxAttempts');
    expect(answer.message.content).toContain('[1]');
    expect(answer.sources[0]).toEqual({ title: 'Retrying failed tasks', path: 'retries', url: '/retries#configure-retries' });
  });

  it('streams the answer as server-sent events in order', async () => {
    const res = await site('POST', '/_quire/chat', { question: QUESTIONS.payload.question, visitorId: 'site-v2' }, { accept: 'text/event-stream' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(res.headers['cache-control']).toBe('no-store');
    const events = parseEvents(res.body);
    expect(events.map((e) => e.event).filter((n, i, all) => n !== 'delta' || all[i - 1] !== 'delta')).toEqual(['session', 'sources', 'delta', 'done']);
    const { answer, deltas } = streamed(events);
    expect(deltas).toBe(answer.message.content);
    expect(answer.sources[0]).toMatchObject({ path: 'limits', url: '/limits' });
  });

  it('cites a gated page only for a reader whose token opens it, by header or cookie', async () => {
    const without = await ask({ question: QUESTIONS.partner.question, visitorId: 'site-gate' });
    expect(without.sources.map((s) => s.path)).not.toContain('partners');
    expect(without.message.content).not.toContain('40 percent');
    const header = await ask({ question: QUESTIONS.partner.question, visitorId: 'site-gate' }, { 'x-audience-token': partnerToken });
    expect(header.sources.map((s) => s.path)).toContain('partners');
    const cookie = await ask({ question: QUESTIONS.partner.question, visitorId: 'site-gate' }, { cookie: `quire_audience=${partnerToken}` });
    expect(cookie.sources.map((s) => s.path)).toContain('partners');
    expect(cookie.message.content).toContain('40 percent');
  });

  it('lists the visitor\'s sessions and their transcript; other visitors get 404 NOT_FOUND', async () => {
    const answer = await ask({ question: QUESTIONS.retries.question, visitorId: 'site-hist' });
    const list = await site('GET', '/_quire/chat/sessions?visitorId=site-hist');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.sessions).toEqual([expect.objectContaining({ id: answer.sessionId, title: QUESTIONS.retries.question })]);
    const transcript = await site('GET', `/_quire/chat/sessions/${answer.sessionId}?visitorId=site-hist`);
    expect(transcript.json().data.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    const other = await site('GET', `/_quire/chat/sessions/${answer.sessionId}?visitorId=someone-else`);
    expect(other.statusCode).toBe(404);
    expect(other.json().error.code).toBe('NOT_FOUND');
  });

  it.each([
    ['/_quire/chat/sessions', 'INVALID_REQUEST', 400],
    [`/_quire/chat/sessions?visitorId=${'v'.repeat(101)}`, 'INVALID_REQUEST', 400],
    ['/_quire/chat/sessions/not-a-uuid?visitorId=v', 'INVALID_REQUEST', 400],
    ['/_quire/chat/other', 'not_found', 404],
  ])('answers GET %s with %s', async (url, code, status) => {
    const res = await site('GET', url);
    expect(res.statusCode).toBe(status);
    expect(res.json().error.code).toBe(code);
  });

  it('refuses bad asks with 400 naming the field', async () => {
    const missing = await site('POST', '/_quire/chat', { visitorId: 'v' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({ code: 'invalid_request', details: { field: 'question' } });
    const notJson = await t.app.inject({ method: 'POST', url: '/_quire/chat', headers: { host, 'content-type': 'text/plain' }, payload: 'hello' });
    expect(notJson.statusCode).toBe(400);
    const nul = await site('POST', '/_quire/chat', { question: 'a\u0000b', visitorId: 'v' });
    expect(nul.json().error.details.field).toBe('question');
  });

  it('answers other methods with 405 and Allow', async () => {
    const put = await site('PUT', '/_quire/chat', { question: 'x', visitorId: 'v' });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD, POST');
    const del = await site('DELETE', '/_quire/chat/sessions?visitorId=v');
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toBe('GET, HEAD');
  });

  it('answers 404 everywhere while the assistant is off', async () => {
    const off = await t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey), payload: { settings: { aiEnabled: false } } });
    expect(off.statusCode).toBe(200);
    try {
      expect((await site('GET', '/_quire/chat')).statusCode).toBe(404);
      const asked = await site('POST', '/_quire/chat', { question: QUESTIONS.retries.question, visitorId: 'site-off' }, { accept: 'text/event-stream' });
      expect(asked.statusCode).toBe(404);
      expect(asked.json().error.code).toBe('not_found');
      expect((await site('GET', '/_quire/chat/sessions?visitorId=site-off')).statusCode).toBe(404);
    } finally {
      await t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}`, headers: bearer(t.adminKey), payload: { settings: { aiEnabled: true } } });
    }
  });
});
