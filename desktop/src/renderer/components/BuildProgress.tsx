import { useEffect, useState } from 'react';
import type { BuildWatchState } from '../../core/builds';
import { core, errorMessage } from '../trpc';
import { OpenPreviewLink } from './OpenPreviewLink';
import './BuildProgress.css';

/** How often a running build's state is asked of the core, in ms (the core follows the server's stream). */
const WATCH_MS = 500;
/** Extra reads after a build is deployed until its URL arrives (it comes just after the last update). */
const URL_TICKS = 6;

const STATUS_WORDS: Record<string, string> = { queued: 'Queued', building: 'Building', deployed: 'Deployed', failed: 'Failed', cancelled: 'Cancelled' };

/**
 * The state of one build as the core follows it (`builds.watch`), read every {@link WATCH_MS} until
 * the build ended (and, when deployed, its URL is known). Log lines are not kept (`since` is the
 * newest count): this is for a compact progress line, the Builds panel shows the log.
 * @returns the state (null until first read) and the last error reading it
 */
export function useBuildWatch(projectId: string, buildId: string | null): { state: BuildWatchState | null; error: string | null } {
  const [state, setState] = useState<BuildWatchState | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setState(null);
    setError(null);
    if (!buildId) return;
    let stopped = false;
    let timer = 0;
    let since = 0;
    let urlTicks = 0;
    const tick = async () => {
      try {
        const s = await core.builds.watch.query({ projectId, buildId, since });
        if (stopped) return;
        since = s.lineCount;
        setState(s);
        setError(null);
        if (s.done && (s.url !== null || s.status !== 'deployed' || ++urlTicks > URL_TICKS)) return;
      } catch (err) {
        if (stopped) return;
        setError(errorMessage(err));
      }
      timer = window.setTimeout(() => void tick(), WATCH_MS);
    };
    void tick();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [projectId, buildId]);
  return { state, error };
}

/**
 * One build's progress in a line (a status named `label`, e.g. "Production build"): its status and
 * the step it waits on, the failure's message, and once deployed a link to what it published:
 * "Open live site" (production, the site's URL) or "Open preview" (a preview, through a member
 * pass: OpenPreviewLink.tsx).
 */
export function BuildProgress({ projectId, buildId, label }: { projectId: string; buildId: string; label: string }) {
  const { state, error } = useBuildWatch(projectId, buildId);
  return (
    <div className="build-progress">
      <p role="status" aria-label={label}>
        {label}:{' '}
        {state ? (
          <span className={`build-status build-status-${state.status}`}>
            {STATUS_WORDS[state.status] ?? state.status}
            {state.step === 'waiting_for_approval' ? ' (waiting for approval)' : ''}
          </span>
        ) : (
          'starting...'
        )}
      </p>
      {state?.problem && <p className="note">{state.problem}</p>}
      {error && <p className="note">The app cannot follow this build right now: {error}</p>}
      {state?.error && <p role="alert">{state.error}</p>}
      {state?.status === 'deployed' &&
        state.url &&
        (state.isPreview ? (
          <OpenPreviewLink projectId={projectId} url={state.url}>
            Open preview
          </OpenPreviewLink>
        ) : (
          <a href={state.url} target="_blank" rel="noopener noreferrer">
            Open live site
          </a>
        ))}
      {state?.status === 'deployed' && state.url && <span className="muted build-url">{state.url}</span>}
    </div>
  );
}
