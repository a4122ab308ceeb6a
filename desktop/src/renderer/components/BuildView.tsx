import { useEffect, useRef } from 'react';
import { useBuilds } from '../store/builds-slice';
import { buildSource, buildTitle, duration, STATUS_WORDS } from './build-label';
import { useProjectBuilds } from './BuildsPanel';
import { OpenPreviewLink } from './OpenPreviewLink';
import { useBuildWatch } from './use-build-watch';

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
  const { state, error, lines } = useBuildWatch(projectId, current, { keepLines: true, onDone: () => useBuilds.getState().bump() });
  const logRef = useRef<HTMLPreElement>(null);

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
