import { useEffect } from 'react';
import { core } from '../trpc';
import { useApp } from '../store/app-store';

const POLL_MS = 10_000;
const LABELS = { synced: 'Synced', offline: 'Offline', 'signed-out': 'Signed out' } as const;

/** The sync status (role `status`, named "Sync status"): "Synced" when the server answers, "Offline" when it does not. */
export function SyncStatus() {
  const sync = useApp((s) => s.sync);
  const setSync = useApp((s) => s.setSync);
  useEffect(() => {
    let stop = false;
    const check = () =>
      core.sync.status.query().then(
        (r) => !stop && setSync(r.state),
        () => !stop && setSync('offline'),
      );
    void check();
    const timer = setInterval(check, POLL_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [setSync]);
  return (
    <div role="status" aria-label="Sync status" className={`sync sync-${sync ?? 'unknown'}`}>
      <span className="dot" aria-hidden="true" />
      {sync ? LABELS[sync] : 'Checking...'}
    </div>
  );
}
