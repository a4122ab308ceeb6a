import { useCallback, useEffect, useRef, useState } from 'react';
import type { Build } from '@quire/shared/api/builds';
import type { BuildWatchState } from '../../core/builds';
import { useUi } from '../store/ui-slice';
import { core, errorMessage } from '../trpc';
import { OpenPreviewLink } from './OpenPreviewLink';

/** How often a running build's state is asked of the core, in ms (the core follows the server's stream). */
const WATCH_MS = 500;

/** "0.4 s", "1 min 5 s". */
function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const STATUS_WORDS: Record<string, string> = { queued: 'Queued', building: 'Building', deployed: 'Deployed', failed: 'Failed', cancelled: 'Cancelled' };

/** Publish requests from the palette already started (module-wide: the panel may mount twice). */
let handledPublish = 0;

/**
 * The Builds panel (desktop-look.md "Builds"): a region named "Builds" with the buttons
 * "Publish <branch> (production)" (a production build of the project's branch: the published site)
 * and "Build preview of your changes" (a preview of the files edited here, on the workspace's base
 * commit: core builds.ts `previewChanges`); the current
 * build's status, its status changes with their timings, its log lines as they arrive (a log named
 * "Build log") and, once deployed, an "Open site" link (production) or "Open preview" (a preview,
 * opened through a member pass: OpenPreviewLink.tsx); then the project's recent builds.
 */
export function BuildsPanel({ projectId }: { projectId: string }) {
  const [history, setHistory] = useState<Build[]>([]);
  const [current, setCurrent] = useState<string | null>(null);
  const [state, setState] = useState<BuildWatchState | null>(null);
  const [lines, setLines] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const since = useRef(0);
  const publishRequests = useUi((s) => s.publishRequests);
  const logRef = useRef<HTMLPreElement>(null);

  const refreshHistory = useCallback(async () => {
    try {
      const items = await core.builds.list.query({ projectId });
      setHistory(items);
      return items;
    } catch (err) {
      setError(errorMessage(err));
      return [];
    }
  }, [projectId]);

  const show = useCallback((buildId: string) => {
    since.current = 0;
    setLines([]);
    setState(null);
    setCurrent(buildId);
  }, []);

  const branch = useUi((s) => s.workspace?.ref ?? null);

  const trigger = useCallback(
    async (preview: boolean) => {
      setBusy(true);
      setError(null);
      try {
        const build = preview ? await core.builds.previewChanges.mutate({ projectId }) : await core.builds.trigger.mutate({ projectId, preview: false });
        show(build.id);
        void refreshHistory();
      } catch (err) {
        setError(errorMessage(err));
      } finally {
        setBusy(false);
      }
    },
    [projectId, show, refreshHistory],
  );

  // the newest build when the panel opens
  useEffect(() => {
    void refreshHistory().then((items) => {
      if (items[0]) setCurrent((c) => c ?? items[0]!.id);
    });
  }, [refreshHistory]);

  // "Publish" from the command palette
  useEffect(() => {
    if (publishRequests > handledPublish) {
      handledPublish = publishRequests;
      void trigger(false);
    }
  }, [publishRequests, trigger]);

  // follow the current build until it ends
  useEffect(() => {
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
          void refreshHistory();
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
  }, [projectId, current, refreshHistory]);

  useEffect(() => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines]);

  const running = state !== null && !state.done;
  return (
    <section role="region" aria-label="Builds" className="builds-panel">
      <h2>Builds</h2>
      <div className="builds-actions">
        <button type="button" onClick={() => void trigger(false)} disabled={busy || running} title="A production build of the project's branch as it is on the server: updates the published site">
          {branch ? `Publish ${branch} (production)` : 'Publish (production)'}
        </button>
        <button type="button" onClick={() => void trigger(true)} disabled={busy || running} title="A private preview site of the pages you edited here, not yet proposed or published">
          Build preview of your changes
        </button>
      </div>
      {error && <p role="alert">{error}</p>}
      {state && (
        <div className="build-current">
          <p role="status" aria-label="Build status">
            <span className={`build-status build-status-${state.status}`}>{STATUS_WORDS[state.status] ?? state.status}</span>
            {state.step === 'waiting_for_approval' ? ' (waiting for approval)' : ''} · {state.isPreview ? 'preview' : 'production'} · {state.buildId}
          </p>
          {state.problem && <p className="note">{state.problem}</p>}
          {state.error && <p role="alert">{state.error}</p>}
          {state.url && state.status === 'deployed' && !state.isPreview && (
            <a href={state.url} target="_blank" rel="noopener noreferrer">
              Open site
            </a>
          )}
          {state.url && state.status === 'deployed' && state.isPreview && (
            <OpenPreviewLink projectId={projectId} url={state.url}>
              Open preview
            </OpenPreviewLink>
          )}
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
          <pre ref={logRef} role="log" aria-label="Build log" className="build-log">
            {lines.join('\n')}
          </pre>
        </div>
      )}
      {history.length > 0 && (
        <ul className="builds-history" aria-label="Recent builds">
          {history.slice(0, 10).map((b) => (
            <li key={b.id}>
              <button type="button" aria-current={b.id === current ? 'true' : undefined} onClick={() => show(b.id)}>
                {STATUS_WORDS[b.status] ?? b.status} · {b.isPreview ? 'preview' : 'production'} · {new Date(b.createdAt).toLocaleString()}
                {b.duration !== null ? ` · ${duration(b.duration)}` : ''}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
