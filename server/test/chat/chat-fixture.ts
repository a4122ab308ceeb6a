/**
 * A small documentation project for the assistant's tests: pages that answer known questions, a
 * gated page (frontmatter `audience: partners`) whose answer must reach only a reader with a token
 * that opens it, and helpers to ask through the API and the site and to read a server-sent stream.
 */
import type { LightMyRequestResponse } from 'fastify';
import type { ChatAnswer, ChatStreamEvent } from '@quire/shared/api/chat';
import type { TestApp } from '../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { buildAndDeploy, createGatedProject } from '../sites/gate-fixture';

/** Questions and the page that answers each. */
export const QUESTIONS = {
  /** answered by retries.mdx, section "Configure retries" */
  retries: { question: 'How do I retry a task automatically when it fails?', path: 'retries', anchor: 'configure-retries' },
  /** answered by limits.mdx */
  payload: { question: 'What is the maximum payload size?', path: 'limits' },
  /** answered only by partners.mdx (gated: partners) */
  partner: { question: 'How big is the zebrafinch discount for partners?', path: 'partners' },
  /** answered by no page */
  unanswerable: 'How do I configure Kubernetes pod autoscaling for the dashboard?',
};

/** The repository. */
export function chatDocsRepo(): FixtureRepo {
  return createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({ name: 'Chat Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'retries', 'limits', 'partners'] }] } }),
      'index.mdx': '---\ntitle: Welcome\n---\n\nWelcome to the task runner documentation.\n',
      'retries.mdx':
        '---\ntitle: Retrying failed tasks\n---\n\nTasks can be retried when they fail.\n\n## Configure retries\n\n' +
        'Set maxAttempts in the retry option of a task to retry it automatically when it fails. The default is three attempts with an exponential backoff between them.\n\n' +
        '## Stop retrying\n\nThrow an AbortTaskRunError to stop retrying a run at once.\n',
      'limits.mdx': '---\ntitle: Limits\n---\n\nThe maximum payload size of a task is 10 MB. Larger payloads are refused when the task is triggered.\n',
      'partners.mdx': '---\ntitle: Partner pricing\naudience: partners\n---\n\nThe zebrafinch discount gives partners 40 percent off every plan.\n',
    },
  });
}

/** Creates the project on `repo` and deploys it; returns its id and site host. */
export async function deployChatProject(t: TestApp, repo: FixtureRepo, slug: string): Promise<{ projectId: string; host: string }> {
  const projectId = await createGatedProject(t, repo, slug);
  await buildAndDeploy(t, projectId);
  return { projectId, host: `${slug}-docs.localhost:${t.ctx.config.port}` };
}

/** The events of a `text/event-stream` body, in order. */
export function parseEvents(body: string): ChatStreamEvent[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event === undefined || data === undefined) throw new Error(`not an event: ${block}`);
      return { event, data: JSON.parse(data) } as ChatStreamEvent;
    });
}

/** The `done` answer of a stream and the concatenated deltas. */
export function streamed(events: ChatStreamEvent[]): { answer: ChatAnswer; deltas: string } {
  const done = events.find((e) => e.event === 'done');
  if (!done || done.event !== 'done') throw new Error(`no done event in ${JSON.stringify(events.map((e) => e.event))}`);
  const deltas = events.map((e) => (e.event === 'delta' ? e.data.text : '')).join('');
  return { answer: done.data, deltas };
}

let asker = 0;
/** A client address of its own for each call (the per-address question limit is tested on purpose only). */
export function nextAddress(): string {
  asker++;
  return `127.1.${asker >> 8}.${asker & 255}`;
}

/** `POST /v1/projects/{projectId}/chat`, from `remoteAddress` (default: a new address). */
export function apiAsk(
  t: TestApp,
  projectId: string,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
  remoteAddress = nextAddress(),
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/chat`, headers: { 'content-type': 'application/json', ...headers }, payload, remoteAddress });
}
