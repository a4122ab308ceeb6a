import { useEffect, useRef, useState } from 'react';
import type { BuildWatchState } from '../../core/builds';
import { useBuilds } from '../store/builds-slice';
import { core, errorMessage } from '../trpc';
import { buildSource, buildTitle, duration, STATUS_WORDS } from './build-label';
import { useProjectBuilds } from './BuildsPanel';
import { OpenPreviewLink } from './OpenPreviewLink';

/** How often a running build's state is asked of the core, in ms (the core follows the server's stream). */
const WATCH_MS = 500;

/**
 * The build chosen in the Builds panel, in the editor area where its log has room: a region named
 * "Current build" headed by the build's commit message (or branch and commit; never its raw id),
 * its status (a status named "Build status": status, kind, branch and commit), its status changes
 * with their timings (a list named "Step timings"), its log lines as they arrive (a log named
 * "Build log", filling the area) and, once deployed, an "Open site" link (production) or "Open
 * preview" (a preview, opened through a member pass: OpenPreviewLink.tsx).
 */
export function BuildView({ projectId }: { projectId: string }) {
  const current = useBuilds((s) => s.current);
  const { builds } = useProjectBuilds(projectId);
  const [state, setState] = useState<BuildWatchState | null>(null);
  const [lines, setLines] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const since = useRef(0);
  const logRef = useRef<HTMLPreElement>(null);

  // follow the current build until it ends
  useEffect(() => {
    since.current = 0;
    setLines([]);
    setState(null);
    setError(null);
    if (!current) return;
    let stopped = false;
    let timer = 0;
    let doneTicks = 0;
    const tick = async () => {
      try {
        const s = await core.builds.watch.query({ projectId, buildId: current, since: since.current });
        if (stopped) return;
        since.current = s.lineCount;
        if (s.lines.length) setLines((old) => [...old, ...s.lines]);
        setState(s);
        // a deployed build's URL arrives just after its last update: a few more ticks for it
        if (s.done && (s.url !== null || s.status !== 'deployed' || ++doneTicks > 6)) {
          useBuilds.getState().bump();
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
  }, [projectId, current]);

  useEffect(() => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines]);

  if (!current) {
    return <p className="note">No build yet: Publish or Build preview in the Builds panel starts one.</p>;
  }
  const build = builds.find((b) => b.id === current);
  return (
    <section role="region" aria-label="Current build" className="build-view">
      <header className="build-view-head">
        <h2>{buildTitle(build, current)}</h2>
        {error && <p role="alert">{error}</p>}
        {state && (
          <>
            <p role="status" aria-label="Build status">
              <span className={`build-status build-status-${state.status}`}>{STATUS_WORDS[state.status] ?? state.status}</span>
              {state.step === 'waiting_for_approval' ? ' (waiting for approval)' : ''} · {state.isPreview ? 'preview' : 'production'}
              {build ? ` · ${buildSource(build)}` : ''}
              {state.url && state.status === 'deployed' && !state.isPreview && (
                <>
                  {' · '}
                  <a href={state.url} target="_blank" rel="noopener noreferrer">
                    Open site
                  </a>
                </>
              )}
              {state.url && state.status === 'deployed' && state.isPreview && (
                <>
                  {' · '}
                  <OpenPreviewLink projectId={projectId} url={state.url}>
                    Open preview
                  </OpenPreviewLink>
                </>
              )}
            </p>
            {state.problem && <p className="note">{state.problem}</p>}
            {state.error && <p role="alert">{state.error}</p>}
            <ol className="build-phases" aria-label="Step timings">
              {state.phases.map((p, i) => {
                const next = state.phases[i + 1];
                return (
                  <li key={`${p.status}-${p.at}`}>
                    {STATUS_WORDS[p.status] ?? p.status}
                    {p.step ? ` (${p.step.replace(/_/g, ' ')})` : ''}
                    {next ? `: ${duration(next.at - p.at)}` : ''}
                  </li>
                );
              })}
            </ol>
          </>
        )}
      </header>
      <pre ref={logRef} role="log" aria-label="Build log" className="build-log">
        {lines.join('\n')}
      </pre>
    </section>
  );
}
