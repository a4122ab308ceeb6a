/**
 * Helpers of the git webhook tests: GitHub's real example payloads (`@octokit/webhooks-examples`),
 * signed deliveries with the headers GitHub sends, a fixture repository standing in for
 * `https://github.com/Codertocat/Hello-World` through git's `url.<base>.insteadOf`, and polling.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { bearer, type TestApp } from '../helpers/app';
import type { FixtureRepo } from '../helpers/git-repo';

/** The repository every example payload names. */
export const EXAMPLE_REPO_URL = 'https://github.com/Codertocat/Hello-World';
export const SECRET = 'webhook secret of the test project';
/**
 * Time limit of a test that waits for real builds, in ms: the first build of a test process imports
 * the renderer and starts its worker pool, which takes several seconds on a loaded machine.
 */
export const REAL_BUILD_TIMEOUT_MS = 120_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Payload = Record<string, any>;

let examples: { name: string; examples: Payload[] }[] | undefined;

/**
 * A deep copy of the first example payload of `event` that `match` accepts (the `@octokit/webhooks-examples` set,
 * real deliveries of github.com).
 * @throws Error when there is none.
 */
export function example(event: string, match: (p: Payload) => boolean = () => true): Payload {
  examples ??= JSON.parse(fs.readFileSync(createRequire(import.meta.url).resolve('@octokit/webhooks-examples'), 'utf8')) as { name: string; examples: Payload[] }[];
  const found = examples.find((e) => e.name === event)?.examples.find(match);
  if (!found) throw new Error(`no ${event} example`);
  return structuredClone(found);
}

/** A push example (to a branch, one commit) set to `branch` at `sha`, listing `commits` as its commits' changed paths. */
export function pushPayload(branch: string, sha: string, commits: { added?: string[]; modified?: string[]; removed?: string[] }[] = [{ modified: ['index.mdx'] }]): Payload {
  const p = example('push', (x) => String(x.ref).startsWith('refs/heads/') && x.commits.length === 1);
  const template = p.commits[0];
  p.ref = `refs/heads/${branch}`;
  p.after = sha;
  p.commits = commits.map((c, i) => ({ ...template, id: i === commits.length - 1 ? sha : `${String(i).repeat(40)}`.slice(0, 40), added: c.added ?? [], modified: c.modified ?? [], removed: c.removed ?? [] }));
  p.head_commit = p.commits[p.commits.length - 1];
  return p;
}

/** A pull_request example of `action` set to pull request `number` with head `branch` at `sha`. */
export function pullRequestPayload(action: string, number: number, branch: string, sha: string): Payload {
  const p = example('pull_request', (x) => x.action === action);
  p.number = number;
  p.pull_request.number = number;
  p.pull_request.head.ref = branch;
  p.pull_request.head.sha = sha;
  return p;
}

/** Options of {@link deliver}. */
export interface DeliverOptions {
  event: string;
  secret?: string;
  deliveryId?: string;
  receiver?: 'github' | 'github-app';
  /** send this body instead of the payload's JSON */
  body?: string | Buffer;
  /** send this signature (null: none) instead of the body's */
  signature?: string | null;
  /** headers to add or (null) leave out */
  headers?: Record<string, string | null>;
}

/** The headers GitHub sends with a delivery. */
export async function githubHeaders(body: string, options: Omit<DeliverOptions, 'body'> & { deliveryId: string }): Promise<Record<string, string>> {
  const signature = options.signature === undefined ? await sign(options.secret ?? SECRET, body) : options.signature;
  const headers: Record<string, string | null> = {
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/abc1234',
    'x-github-event': options.event,
    'x-github-delivery': options.deliveryId,
    'x-github-hook-id': '292430182',
    'x-github-hook-installation-target-type': 'repository',
    ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
    ...options.headers,
  };
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== null));
}

/** POSTs a signed delivery of `payload` through `app.inject`. */
export async function deliver(t: TestApp, payload: Payload | null, options: DeliverOptions) {
  const body = options.body ?? JSON.stringify(payload);
  const deliveryId = options.deliveryId ?? randomUUID();
  const headers = await githubHeaders(typeof body === 'string' ? body : body.toString('utf8'), { ...options, deliveryId });
  return t.app.inject({ method: 'POST', url: `/v1/webhooks/${options.receiver ?? 'github'}`, headers, payload: body });
}

/**
 * Points `https://github.com/Codertocat/Hello-World` at `repo` for git (decisions.md section 1:
 * `url.<base>.insteadOf` through `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_0`/`GIT_CONFIG_VALUE_0`).
 * @returns a function restoring the previous environment.
 */
export function mirrorExampleRepo(repo: FixtureRepo): () => void {
  const keys = ['GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0'] as const;
  const saved = keys.map((k) => process.env[k]);
  Object.assign(process.env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `url.${repo.path}.insteadOf`, GIT_CONFIG_VALUE_0: EXAMPLE_REPO_URL });
  return () => {
    keys.forEach((k, i) => {
      const v = saved[i];
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    });
  };
}

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'Quire Tests', GIT_AUTHOR_EMAIL: 'tests@quire.local', GIT_COMMITTER_NAME: 'Quire Tests', GIT_COMMITTER_EMAIL: 'tests@quire.local', GIT_CONFIG_NOSYSTEM: '1' };

/** Commits `changes` on `branch` of `repo` (created from the current branch when missing) and returns the commit; the repo stays on its main branch. */
export function commitOnBranch(repo: FixtureRepo, branch: string, changes: Record<string, string>): string {
  const git = (args: string[]) => execFileSync('git', args, { cwd: repo.path, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const exists = git(['branch', '--list', branch]) !== '';
  git(['checkout', '--quiet', ...(exists ? [] : ['-b']), branch]);
  try {
    return repo.commit(changes, `change on ${branch}`);
  } finally {
    git(['checkout', '--quiet', repo.branch]);
  }
}

/** Creates a project through the API. */
export async function createWebhookProject(
  t: TestApp,
  body: { slug: string; repoUrl?: string; repoBranch?: string; webhookSecret?: string | null; settings?: Record<string, boolean> },
  key = t.adminKey,
): Promise<{ id: string; slug: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/projects',
    headers: bearer(key),
    payload: {
      name: body.slug,
      slug: body.slug,
      repoUrl: body.repoUrl ?? EXAMPLE_REPO_URL,
      repoBranch: body.repoBranch ?? 'main',
      ...(body.webhookSecret === null ? {} : { webhookSecret: body.webhookSecret ?? SECRET }),
      ...(body.settings ? { settings: body.settings } : {}),
    },
  });
  if (res.statusCode !== 201) throw new Error(`project create failed: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: string; slug: string };
}

/** `GET .../builds/{id}` data. */
export async function getBuild(t: TestApp, projectId: string, buildId: string): Promise<Payload> {
  const res = await t.app.inject({ url: `/v1/projects/${projectId}/builds/${buildId}`, headers: bearer(t.adminKey) });
  if (res.statusCode !== 200) throw new Error(`get build failed: ${res.statusCode} ${res.body}`);
  return res.json().data as Payload;
}

/** Polls a build until its status is one of `statuses` (throws after `timeoutMs`). */
export async function waitForBuild(t: TestApp, projectId: string, buildId: string, statuses: string[] = ['deployed', 'failed', 'cancelled'], timeoutMs = 60_000): Promise<Payload> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const build = await getBuild(t, projectId, buildId);
    if (statuses.includes(build.status)) return build;
    if (Date.now() > until) throw new Error(`build ${buildId} still ${build.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The project's delivery records (`GET .../webhook-test/deliveries`). */
export async function deliveries(t: TestApp, projectId: string, query = ''): Promise<Payload> {
  const res = await t.app.inject({ url: `/v1/projects/${projectId}/webhook-test/deliveries${query}`, headers: bearer(t.adminKey) });
  if (res.statusCode !== 200) throw new Error(`deliveries failed: ${res.statusCode} ${res.body}`);
  return res.json() as Payload;
}

/** The project's builds, newest first. */
export async function builds(t: TestApp, projectId: string): Promise<Payload[]> {
  const res = await t.app.inject({ url: `/v1/projects/${projectId}/builds?per_page=100`, headers: bearer(t.adminKey) });
  return res.json().data as Payload[];
}

/** A site page by Host (`app.inject`, port 4000 as the sites' URLs say). */
export function site(t: TestApp, host: string, url = '/') {
  return t.app.inject({ url, headers: { host: `${host}:4000` } });
}
