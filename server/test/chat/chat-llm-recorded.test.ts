/**
 * The assistant with a model configured (`QUIRE_LLM_URL`), against a local OpenAI-compatible fake that replays a
 * stream transcript (recordings/openai-chat-stream.sse: Chat Completions chunks as a llama.cpp-style server sends them —
 * a first chunk carrying only the role, content pieces, a `finish_reason` chunk, a usage chunk with no choices, then
 * `[DONE]`). What a reader would notice: the model is given the retrieved sections, numbered, each with its page and
 * anchor; and the answer keeps the model's citations, `[n]` naming the n-th source, which links to the section the prompt
 * numbered n.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';
import { apiAsk, chatDocsRepo, deployChatProject, parseEvents, QUESTIONS, streamed } from './chat-fixture';

const RECORDING = fs.readFileSync(path.join(import.meta.dirname, 'recordings', 'openai-chat-stream.sse'), 'utf8');
/** The answer the recording spells out: its chunks' `delta.content`, in order. */
const RECORDED_ANSWER = RECORDING.split('\n')
  .filter((l) => l.startsWith('data: {'))
  .map((l) => (JSON.parse(l.slice(6)) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '')
  .join('');

const prompts: string[] = [];
const fake = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
  req.on('end', () => {
    prompts.push((JSON.parse(raw) as { messages: { content: string }[] }).messages[0]!.content);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // the recording's events one write each, as a server streams them
    for (const event of RECORDING.split('\n\n').filter((e) => e.trim())) res.write(`${event}\n\n`);
    res.end();
  });
});

let t: TestApp;
let repo: FixtureRepo;
let projectId: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const { port } = fake.address() as AddressInfo;
  t = await createTestApp({ runJobs: true, env: { QUIRE_LLM_URL: `http://127.0.0.1:${port}/v1`, QUIRE_LLM_MODEL: 'qwen2.5-7b-instruct' } });
  repo = chatDocsRepo();
  ({ projectId } = await deployChatProject(t, repo, 'chat-llm-recorded'));
}, 120_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
  await new Promise((resolve) => fake.close(resolve));
});

describe('assistant with a recorded OpenAI-compatible stream', () => {
  it('gives the model the numbered sections and keeps the citations of its answer', async () => {
    prompts.length = 0;
    const res = await apiAsk(t, projectId, { question: QUESTIONS.retries.question, visitorId: 'recorded-v' }, { accept: 'text/event-stream' });
    expect(res.statusCode).toBe(200);
    const { answer, deltas } = streamed(parseEvents(res.body));

    // the prompt: each retrieved section numbered, with its page, anchor and text
    expect(prompts).toHaveLength(1);
    const numbered = [...prompts[0]!.matchAll(/^\[(\d+)\] .+ \(([^()\s]+)\)$/gm)].map((m) => ({ n: Number(m[1]), target: m[2]! }));
    expect(numbered.length).toBeGreaterThanOrEqual(2);
    expect(numbered[0]).toEqual({ n: 1, target: `${QUESTIONS.retries.path}#${QUESTIONS.retries.anchor}` });
    expect(prompts[0]).toContain('Set maxAttempts in the retry option of a task to retry it automatically when it fails.');
    expect(prompts[0]).toContain('The maximum payload size of a task is 10 MB.');

    // the answer: the model's words as it wrote them, citations included
    expect(RECORDED_ANSWER).toMatch(/\[1\]\.[^]*\[2\]\.$/);
    expect(answer.message.content).toBe(RECORDED_ANSWER);
    expect(deltas).toBe(RECORDED_ANSWER);

    // each citation [n] names the n-th source, the section the prompt numbered n
    const cited = [...answer.message.content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(cited).toEqual([1, 2]);
    for (const n of cited) {
      const source = answer.sources[n - 1]!;
      const target = numbered.find((x) => x.n === n)!.target;
      expect(source.url.endsWith(`/${target}`)).toBe(true);
    }
  });
});
