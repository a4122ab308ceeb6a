/**
 * A build's progress as it happens, for the desktop app's build panel (tRPC `builds.progress`): its
 * status and step, and its log lines as they are written. Works from any server process: the status
 * comes from the database, woken at once by the `build.status` event (which reaches every process
 * through the event transport), and the log from {@link buildLogText} (the local file while this
 * process builds, the deployment store's copy once another process has finished).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { BuildStatus } from '@quire/shared/api/builds';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { buildLogText } from '../builds/build-log';
import { getBuild } from './builds';

/** One update of a build's progress. */
export interface BuildProgress {
  buildId: string;
  status: BuildStatus;
  /** where a running build waits (`waiting_for_approval`), else null */
  step: string | null;
  /** log lines written since the previous update (every line so far in the first one) */
  lines: string[];
  /** true on the last update: the build ended (deployed, failed or cancelled) */
  done: boolean;
  /** the failure's message, when failed */
  error: string | null;
}

/** How often the build and its log are read again when no event arrives, in ms. */
export const PROGRESS_POLL_MS = 500;
const FINAL: ReadonlySet<string> = new Set(['deployed', 'failed', 'cancelled']);

/**
 * Yields the build's progress: a first update with its whole log so far, then one whenever its
 * status, step or log changes, and a last one (`done: true`) when it has ended; returns then, or
 * when `signal` aborts.
 * @throws ApiError not_found when the project is not the caller's or the build is not in it.
 */
export async function* buildProgress(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  buildId: string,
  signal?: AbortSignal,
): AsyncGenerator<BuildProgress> {
  let wake: (() => void) | undefined;
  // Set by a status event that arrives while the build is being read or the update is being sent:
  // the next read then starts at once instead of after the poll interval (no lost wake-up).
  let changed = false;
  const onStatus = (event: { buildId: string }) => {
    if (event.buildId !== buildId) return;
    changed = true;
    wake?.();
  };
  ctx.events.on('build.status', onStatus);
  try {
    let sentLines = 0;
    let last = '';
    for (;;) {
      changed = false;
      const row = await getBuild(ctx, auth, projectId, buildId);
      const done = FINAL.has(row.status);
      const log = await buildLogText(ctx, projectId, buildId);
      const all = log === '' ? [] : log.replace(/\n$/, '').split('\n');
      const lines = all.slice(sentLines);
      const key = `${row.status}|${row.step ?? ''}`;
      if (lines.length > 0 || key !== last || sentLines === 0) {
        sentLines = all.length;
        last = key;
        yield { buildId, status: row.status as BuildStatus, step: row.step, lines, done, error: row.error };
      }
      if (done || signal?.aborted) return;
      if (changed) continue;
      const woken = new Promise<void>((resolve) => (wake = resolve));
      await Promise.race([woken, sleep(PROGRESS_POLL_MS, undefined, { signal }).catch(() => undefined)]);
      wake = undefined;
      if (signal?.aborted) return;
    }
  } finally {
    ctx.events.off('build.status', onStatus);
  }
}
