import { STATUS_WORDS } from './build-label';
import { OpenPreviewLink } from './OpenPreviewLink';
import { useBuildWatch } from './use-build-watch';
import './BuildProgress.css';

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
