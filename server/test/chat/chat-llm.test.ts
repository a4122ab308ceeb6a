/**
 * The assistant with a model configured (decisions.md section 7: `QUIRE_LLM_URL`, `QUIRE_LLM_MODEL`,
 * `QUIRE_LLM_API_KEY`), against a local fake OpenAI-compatible endpoint that streams Chat
 * Completions chunks: the model is sent the retrieved sections, numbered, and its streamed words
 * become the answer with its citations; when the endpoint fails, the default answerer answers; a
 * question the docs do not answer never reaches the model.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAnswer } from '@quire/shared/api/chat';
import { createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { NOT_IN_DOCS_ANSWER } from '../../src/chat/answerer';
import { apiAsk, chatDocsRepo, deployChatProject, parseEvents, QUESTIONS, streamed } from './chat-fixture';

/** What the fake model says, piece by piece. */
const PIECES = ['Set ', '`maxAttempts` ', 'in the retry option ', '[1].'];

interface SeenRequest {
  path: string;
  authorization: string | undefined;
  body: { model?: string; stream?: boolean; messages: { role: string; content: string }[] };
}

let mode: 'ok' | 'fail' | 'garbage' = 'ok';
const seen: SeenRequest[] = [];
const fake = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
  req.on('end', () => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(raw) as SeenRequest['body'] });
    if (mode === 'fail') {
      res.writeHead(500, { 'content-type': 'application/json' });
      return res.end('{"error":{"message":"model overloaded"}}');
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (mode === 'garbage') return res.end('data: {not json\n\n');
    for (const piece of PIECES) res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}\n\n`);
    res.end('data: [DONE]\n\n');
  });
});

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const { port } = fake.address() as AddressInfo;
  t = await createTestApp({ runJobs: true, env: { QUIRE_LLM_URL: `http://127.0.0.1:${port}/v1`, QUIRE_LLM_MODEL: 'fake-model', QUIRE_LLM_API_KEY: 'sk-fake-key' } });
  repo = chatDocsRepo();
  ({ projectId } = await deployChatProject(t, repo, 'chat-llm'));
}, 120_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
  await new Promise((resolve) => fake.close(resolve));
});

describe('assistant with an OpenAI-compatible endpoint', () => {
  it('streams the model\'s answer written from the numbered retrieved sections', async () => {
    mode = 'ok';
    seen.length = 0;
    const res = await apiAsk(t, projectId, { question: QUESTIONS.retries.question, visitorId: 'llm-v' }, { accept: 'text/event-stream' });
    expect(res.statusCode).toBe(200);
    const events = parseEvents(res.body);
    expect(events.map((e) => e.event)).toEqual(['session', 'sources', 'delta', 'delta', 'delta', 'delta', 'done']);
    const { answer, deltas } = streamed(events);
    expect(deltas).toBe(PIECES.join(''));
    expect(answer.message.content).toBe(PIECES.join(''));
    expect(answer.sources[0]).toMatchObject({ path: 'retries' });
    expect(seen).toHaveLength(1);
    const request = seen[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.authorization).toBe('Bearer sk-fake-key');
    expect(request.body).toMatchObject({ model: 'fake-model', stream: true });
    const system = request.body.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('[1] Retrying failed tasks');
    expect(system.content).toContain('Set maxAttempts in the retry option');
    expect(request.body.messages.at(-1)).toEqual({ role: 'user', content: QUESTIONS.retries.question });
  });

  it('sends the earlier turns of the conversation along', async () => {
    mode = 'ok';
    const first = (await apiAsk(t, projectId, { question: QUESTIONS.retries.question, visitorId: 'llm-turns' })).json().data as ChatAnswer;
    seen.length = 0;
    const second = await apiAsk(t, projectId, { question: QUESTIONS.payload.question, visitorId: 'llm-turns', sessionId: first.sessionId });
    expect(second.statusCode).toBe(200);
    expect(seen[0]!.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(seen[0]!.body.messages[1]!.content).toBe(QUESTIONS.retries.question);
  });

  it.each(['fail', 'garbage'] as const)('falls back to the default answerer when the endpoint answers %s', async (how) => {
    mode = how;
    seen.length = 0;
    const res = await apiAsk(t, projectId, { question: QUESTIONS.retries.question, visitorId: `llm-${how}` }, { accept: 'text/event-stream' });
    expect(res.statusCode).toBe(200);
    const { answer, deltas } = streamed(parseEvents(res.body));
    expect(seen).toHaveLength(1);
    expect(deltas).toBe(answer.message.content);
    expect(answer.message.content).toContain('maxAttempts');
    expect(answer.message.content).toContain('[1]');
    expect(answer.sources[0]).toMatchObject({ path: 'retries' });
  });

  it('never sends a question the docs do not answer to the model', async () => {
    mode = 'ok';
    seen.length = 0;
    const res = await apiAsk(t, projectId, { question: QUESTIONS.unanswerable, visitorId: 'llm-gap' });
    expect(res.json().data.message.content).toBe(NOT_IN_DOCS_ANSWER);
    expect(seen).toHaveLength(0);
  });
});
