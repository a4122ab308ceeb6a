/**
 * Publishing from the desktop app: trigger a production or preview
 * build of the opened project on the server, list its builds, and watch one build's status and log
 * lines live. The core follows the server's `builds.progress` subscription (server-sent events,
 * read with @trpc/client's `httpSubscriptionLink` and the `eventsource` package, since Node 20 has no
 * EventSource); when the stream fails it falls back to reading `builds.get` and `builds.log` every
 * {@link POLL_MS}. The renderer asks for the state it has not seen yet (`builds.watch` with `since`).
 */
import { createTRPCClient, httpSubscriptionLink, TRPCClientError } from '@trpc/client';
import { EventSource } from 'eventsource';
import type { Build, BuildStatus } from '@quire/shared/api/builds';
import type { AppRouter } from '@quire/server/src/trpc/routers/_app';
import type { Core } from './core';
import { serverError as toCoreError, type CoreError } from './core-error';
import { localChangeSet } from './local-changes';
import { createServerClient, isUnreachable } from './server-client';

/** How often a watched build is read again when its progress stream failed, in ms. */
export const POLL_MS = 1000;
/** How long a finished build's watch state is kept after it ended, in ms. */
const KEEP_DONE_MS = 10 * 60_000;

/** When a build reached a status, as the app saw it (ms since the epoch). */
export interface BuildPhase {
  status: BuildStatus;
  /** `waiting_for_approval` while a gated deploy waits, else null */
  step: string | null;
  at: number;
}

/** What `builds.watch` answers: the build's state and the log lines from index `since` on. */
export interface BuildWatchState {
  buildId: string;
  status: BuildStatus;
  step: string | null;
  /** true once the build ended (deployed, failed or cancelled) */
  done: boolean;
  /** the failure's message when failed */
  error: string | null;
  /** the deployed site's URL once deployed, else null */
  url: string | null;
  isPreview: boolean;
  /** log lines from index `since` on (each the server's log line, steps with their durations) */
  lines: string[];
  /** the number of log lines known: the next `since` */
  lineCount: number;
  /** each status change the app saw, in order (the step timings of the panel) */
  phases: BuildPhase[];
  /** 'stream' while following the server's events, 'poll' after the stream failed */
  via: 'stream' | 'poll';
  /** why the app cannot follow the build right now (the server is unreachable), else null */
  problem: string | null;
}

interface Watched {
  projectId: string;
  state: Omit<BuildWatchState, 'lines' | 'lineCount'>;
  lines: string[];
  stop(): void;
  endedAt?: number;
}

/** Turns a failed server call into the core's error (core-error.ts `serverError`: the server's code and message, or UNAVAILABLE). */
function serverError(err: unknown): CoreError {
  return toCoreError(err, 'The Quire server cannot be reached; builds need the server.');
}

/** A subscription-only client of the server (`builds.progress` as server-sent events with the session's bearer token). */
function progressClient(serverUrl: string, token: string) {
  return createTRPCClient<AppRouter>({
    links: [
      httpSubscriptionLink({
        url: `${serverUrl.replace(/\/+$/, '')}/trpc`,
        EventSource,
        eventSourceOptions: {
          fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${token}` } }),
        },
      }),
    ],
  });
}

/**
 * The builds of the core's projects: trigger, list and watch (one per core, made by compose.ts; see
 * the module doc). Every method needs a signed-in session (CoreError UNAUTHORIZED otherwise) and
 * answers the server's errors with its code and message (FORBIDDEN for a viewer's trigger, CONFLICT
 * while a build runs, NOT_FOUND for a foreign build), UNAVAILABLE when the server cannot be reached.
 */
export class Builds {
  private readonly watched = new Map<string, Watched>();

  /** @param session the signed-in session's server URL and token (`Core.serverSession`), and the local store with the workspace's edits (`Core.store`) */
  constructor(private readonly session: Pick<Core, 'serverSession' | 'store'>) {}

  private client() {
    const { serverUrl, token } = this.session.serverSession();
    return createServerClient(serverUrl, () => token);
  }

  /**
   * Starts a build of the project's branch: production (`preview` false: the published site) or a
   * preview deployment, and starts watching it.
   * @returns the queued build (server's Build: id, status, branch, isPreview, url...)
   */
  async trigger(projectId: string, preview: boolean): Promise<Build> {
    const client = this.client();
    let build: Build;
    try {
      build = await client.builds.trigger.mutate({ projectId, preview, force: true });
    } catch (err) {
      throw serverError(err);
    }
    this.start(projectId, build);
    return build;
  }

  /**
   * Starts a preview build of the writer's local edits: every file edited in the opened workspace
   * (local-changes.ts), sent as a change set on the workspace's base commit
   * (`builds.previewChanges` of the server: the preview a review of these edits would get, on the
   * writer's own preview channel), and starts watching it.
   * @returns the queued preview build
   * @throws CoreError NOT_FOUND when the project is not open; BAD_REQUEST when nothing is edited;
   *   the server's refusals (FORBIDDEN for a role that cannot build, BAD_REQUEST naming a file,
   *   PAYLOAD_TOO_LARGE is passed on as UNAVAILABLE with its message); UNAVAILABLE when the server cannot be reached
   */
  async previewChanges(projectId: string): Promise<Build> {
    const { baseCommit, entries } = localChangeSet(this.session.store, projectId);
    const client = this.client();
    let build: Build;
    try {
      build = await client.builds.previewChanges.mutate({ projectId, baseCommit, changes: entries });
    } catch (err) {
      throw serverError(err);
    }
    this.start(projectId, build);
    return build;
  }

  /** The project's newest builds (at most `pageSize`, newest first). */
  async list(projectId: string, pageSize = 20): Promise<Build[]> {
    try {
      return (await this.client().builds.list.query({ projectId, page: 1, pageSize })).items;
    } catch (err) {
      throw serverError(err);
    }
  }

  /**
   * The state of a build and its log lines from index `since` on; starts following the build
   * when it is not followed yet (reading it once from the server first).
   * @throws NOT_FOUND for a build that is not the project's (the server's answer)
   */
  async watch(projectId: string, buildId: string, since = 0): Promise<BuildWatchState> {
    let w = this.watched.get(buildId);
    if (!w || w.projectId !== projectId) {
      let build: Build;
      try {
        build = await this.client().builds.get.query({ projectId, buildId });
      } catch (err) {
        throw serverError(err);
      }
      w = this.watched.get(buildId) ?? this.start(projectId, build);
    }
    this.prune();
    return { ...w.state, phases: [...w.state.phases], lines: w.lines.slice(since), lineCount: w.lines.length };
  }

  /** Stops following every build. */
  close(): void {
    for (const w of this.watched.values()) w.stop();
    this.watched.clear();
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, w] of this.watched) if (w.endedAt && now - w.endedAt > KEEP_DONE_MS) this.watched.delete(id);
  }

  private start(projectId: string, build: Build): Watched {
    const existing = this.watched.get(build.id);
    if (existing) return existing;
    const final = ['deployed', 'failed', 'cancelled'].includes(build.status);
    const w: Watched = {
      projectId,
      lines: [],
      state: {
        buildId: build.id,
        status: build.status,
        step: build.step,
        done: final,
        error: null,
        url: build.url,
        isPreview: build.isPreview,
        phases: [{ status: build.status, step: build.step, at: Date.now() }],
        via: 'stream',
        problem: null,
      },
      stop: () => undefined,
    };
    this.watched.set(build.id, w);
    this.follow(w);
    return w;
  }

  /** Applies one update (status, step, new lines) to a watched build. */
  private update(w: Watched, u: { status: BuildStatus; step: string | null; lines: string[]; done: boolean; error: string | null }): void {
    const s = w.state;
    if (u.status !== s.status || u.step !== s.step) s.phases.push({ status: u.status, step: u.step, at: Date.now() });
    s.status = u.status;
    s.step = u.step;
    s.error = u.error;
    s.problem = null;
    w.lines.push(...u.lines);
    if (u.done && !s.done) {
      s.done = true;
      w.endedAt = Date.now();
      // the deployed URL is on the build, not in the progress updates
      void this.refreshUrl(w);
    }
  }

  private async refreshUrl(w: Watched): Promise<void> {
    try {
      const b = await this.client().builds.get.query({ projectId: w.projectId, buildId: w.state.buildId });
      w.state.url = b.url;
      w.state.error = b.error;
    } catch {
      // the URL shows once the server answers again (the next watch of a new build)
    }
  }

  /** Follows the build over the server's progress stream; on failure, by polling. */
  private follow(w: Watched): void {
    if (w.state.done) {
      void this.poll(w);
      return;
    }
    let session;
    try {
      session = this.session.serverSession();
    } catch {
      return;
    }
    let first = true;
    const sub = progressClient(session.serverUrl, session.token).builds.progress.subscribe(
      { projectId: w.projectId, buildId: w.state.buildId },
      {
        onData: (u) => {
          // the first update carries the whole log so far: replace what polling may have read
          if (first) w.lines = [];
          first = false;
          this.update(w, u);
          if (u.done) sub.unsubscribe();
        },
        onError: (err) => {
          sub.unsubscribe();
          w.state.via = 'poll';
          w.state.problem = err instanceof TRPCClientError && !isUnreachable(err) ? err.message : null;
          void this.poll(w);
        },
      },
    );
    w.stop = () => sub.unsubscribe();
  }

  /** Reads the build and its whole log every POLL_MS until it ends (or is no longer watched). */
  private async poll(w: Watched): Promise<void> {
    let stopped = false;
    w.stop = () => {
      stopped = true;
    };
    while (!stopped && this.watched.get(w.state.buildId) === w) {
      try {
        const client = this.client();
        const [b, log] = await Promise.all([
          client.builds.get.query({ projectId: w.projectId, buildId: w.state.buildId }),
          client.builds.log.query({ projectId: w.projectId, buildId: w.state.buildId }),
        ]);
        const all = log === '' ? [] : log.replace(/\n$/, '').split('\n');
        const done = ['deployed', 'failed', 'cancelled'].includes(b.status);
        const wasDone = w.state.done;
        w.state.done = false;
        this.update(w, { status: b.status, step: b.step, lines: all.slice(w.lines.length), done, error: b.error });
        w.state.url = b.url;
        if (done || wasDone) {
          w.state.done = true;
          w.endedAt ??= Date.now();
          return;
        }
      } catch (err) {
        w.state.problem = serverError(err).message;
      }
      await new Promise((r) => setTimeout(r, POLL_MS).unref?.());
    }
  }
}
