import { useEffect, useRef, useState } from 'react';
import type { BuildWatchState } from '../../core/builds';
import { core, errorMessage } from '../trpc';

/** How often a running build's state is asked of the core, in ms (the core follows the server's stream). */
const WATCH_MS = 500;
/** Extra reads after a build is deployed until its URL arrives (it comes just after the last update). */
const URL_TICKS = 6;

/** What {@link useBuildWatch} keeps beyond the build's state. */
export interface BuildWatchOptions {
  /** keep the build's log lines as they arrive (default false: a compact progress line needs none) */
  keepLines?: boolean;
  /** called once when the build ended (and, when deployed, its URL is known or no longer awaited) */
  onDone?: () => void;
}

/** The state of one followed build: `state` is null until first read, `lines` stays empty unless asked for. */
export interface BuildWatch {
  state: BuildWatchState | null;
  /** the last error reading the build, null after a good read */
  error: string | null;
  /** the log lines read so far, in order (only with `keepLines`) */
  lines: string[];
}

/**
 * Follows one build as the core does (`builds.watch`), read every {@link WATCH_MS} ms until the build
 * ended and, when deployed, its URL arrived (at most {@link URL_TICKS} more reads). Each read asks only
 * for the log lines after those already read (`since`). A null `buildId` follows nothing.
 */
export function useBuildWatch(projectId: string, buildId: string | null, options: BuildWatchOptions = {}): BuildWatch {
  const [state, setState] = useState<BuildWatchState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [lines, setLines] = useState<string[]>([]);
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    setState(null);
    setError(null);
    setLines([]);
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
        if (latest.current.keepLines && s.lines.length) setLines((old) => [...old, ...s.lines]);
        setState(s);
        setError(null);
        if (s.done && (s.url !== null || s.status !== 'deployed' || ++urlTicks > URL_TICKS)) {
          latest.current.onDone?.();
          return;
        }
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
  return { state, error, lines };
}
