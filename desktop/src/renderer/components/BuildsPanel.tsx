import { useCallback, useEffect, useState } from 'react';
import type { Build } from '@quire/shared/api/builds';
import { useBuilds } from '../store/builds-slice';
import { useUi } from '../store/ui-slice';
import { core, errorMessage } from '../trpc';
import { buildSource, buildTitle, duration, STATUS_WORDS } from './build-label';

/** Publish requests from the palette already started (module-wide: the panel may mount twice). */
let handledPublish = 0;

/** The project's builds as the core lists them (newest first), read again whenever `useBuilds().version` moves. */
export function useProjectBuilds(projectId: string): { builds: Build[]; error: string | null } {
  const version = useBuilds((s) => s.version);
  const [builds, setBuilds] = useState<Build[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    core.builds.list.query({ projectId }).then(
      (items) => !cancelled && (setBuilds(items), setError(null)),
      (err: unknown) => !cancelled && setError(errorMessage(err)),
    );
    return () => {
      cancelled = true;
    };
  }, [projectId, version]);
  return { builds, error };
}

/**
 * The Builds panel of the side panel (desktop-look.md "Builds"): a region named "Builds" with the
 * buttons "Publish <branch> (production)" (a production build of the project's branch: the published
 * site) and "Build preview of your changes" (a preview of the files edited here, on the workspace's
 * base commit: core builds.ts `previewChanges`), disabled while a build of the project runs, and the
 * project's recent builds, each a button named by its status, kind, commit message (or branch and
 * commit), date and duration. The chosen build (the newest when the panel opens, or the one just
 * started) is shown wide in the editor area (BuildView.tsx).
 */
export function BuildsPanel({ projectId }: { projectId: string }) {
  const { builds, error: listError } = useProjectBuilds(projectId);
  const current = useBuilds((s) => s.current);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const publishRequests = useUi((s) => s.publishRequests);
  const running = builds.some((b) => b.status === 'queued' || b.status === 'building');

  const branch = useUi((s) => s.workspace?.ref ?? null);

  const trigger = useCallback(
    async (preview: boolean) => {
      setBusy(true);
      setError(null);
      try {
        const build = preview ? await core.builds.previewChanges.mutate({ projectId }) : await core.builds.trigger.mutate({ projectId, preview: false });
        useBuilds.getState().show(build.id);
        useBuilds.getState().bump();
      } catch (err) {
        setError(errorMessage(err));
      } finally {
        setBusy(false);
      }
    },
    [projectId],
  );

  // the newest build when the panel opens
  useEffect(() => {
    if (builds[0] && !useBuilds.getState().current) useBuilds.getState().show(builds[0].id);
  }, [builds]);

  // "Publish" from the command palette
  useEffect(() => {
    if (publishRequests > handledPublish) {
      handledPublish = publishRequests;
      void trigger(false);
    }
  }, [publishRequests, trigger]);

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
      {(error ?? listError) && <p role="alert">{error ?? listError}</p>}
      {builds.length > 0 && (
        <ul className="builds-history" aria-label="Recent builds">
          {builds.slice(0, 10).map((b) => (
            <li key={b.id}>
              <button type="button" aria-current={b.id === current ? 'true' : undefined} onClick={() => useBuilds.getState().show(b.id)} title={buildSource(b)}>
                <span className={`build-status build-status-${b.status}`}>{STATUS_WORDS[b.status] ?? b.status}</span> · {b.isPreview ? 'preview' : 'production'}
                <span className="build-title">{buildTitle(b)}</span>
                <span className="build-when">
                  {new Date(b.createdAt).toLocaleString()}
                  {b.duration !== null ? ` · ${duration(b.duration)}` : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
