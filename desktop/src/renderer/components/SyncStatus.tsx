import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../trpc';
import { useApp } from '../store/app-store';
import { useReviews } from '../store/reviews-slice';
import { syncApi } from './reviews/api';
import type { SyncInfo } from './reviews/types';
import './reviews/reviews.css';

/** How often the status is read from the core (a local read; the core syncs on its own), in ms. */
const POLL_MS = 2500;

/** The words of the sync status: "Synced", "Syncing...", "Offline", "N pending" (combined when both hold), "Signed out". */
export function syncLabel(info: Pick<SyncInfo, 'state' | 'pending'>): string {
  const pending = info.pending > 0 ? `${info.pending} pending` : '';
  switch (info.state) {
    case 'signed-out':
      return 'Signed out';
    case 'offline':
      return pending ? `Offline, ${pending}` : 'Offline';
    case 'syncing':
      return pending ? `Syncing... ${pending}` : 'Syncing...';
    default:
      return pending || 'Synced';
  }
}

/**
 * The sync status of the top strip (desktop-look.md "Frame"): an element with role `status` named
 * "Sync status" whose text is "Synced", "Offline", "N pending" (N the outbox size) or "Syncing...";
 * beside it the "Outbox" button opens the list of queued changes with their state, attempts and the
 * server's refusal reasons, "Sync now" and "Dismiss" for a refused item. When the state or the outbox size moves, the review
 * screens read the core again (their pending markers clear).
 */
export function SyncStatus() {
  const setSync = useApp((s) => s.setSync);
  const version = useReviews((s) => s.version);
  const bump = useReviews((s) => s.bump);
  const [info, setInfo] = useState<SyncInfo | null>(null);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const last = useRef('');

  useEffect(() => {
    let stop = false;
    const check = () =>
      syncApi.status.query().then(
        (r) => {
          if (stop) return;
          const next: SyncInfo = { state: r.state, pending: r.pending ?? 0, lastError: r.lastError ?? null, items: r.items ?? [] };
          setInfo(next);
          setSync(next.state === 'syncing' ? 'synced' : next.state);
          const key = `${next.state}:${next.pending}:${next.items.map((i) => `${i.seq}${i.state}`).join(',')}`;
          if (last.current && key !== last.current) bump();
          last.current = key;
        },
        () => {
          if (stop) return;
          setInfo((old) => ({ state: 'offline', pending: old?.pending ?? 0, lastError: old?.lastError ?? null, items: old?.items ?? [] }));
          setSync('offline');
        },
      );
    void check();
    const timer = setInterval(check, POLL_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [setSync, bump, version]);

  const syncNow = () => {
    setError(null);
    syncApi.now.mutate().then(
      () => bump(),
      (err: unknown) => setError(errorMessage(err)),
    );
  };

  /** Puts a refused item away (what it did locally disappears; the reason was shown). */
  const dismiss = (seq: number) => {
    setError(null);
    syncApi.dismiss.mutate({ seq }).then(
      () => bump(),
      (err: unknown) => setError(errorMessage(err)),
    );
  };

  return (
    <div className="sync-wrap">
      <div role="status" aria-label="Sync status" className={`sync sync-${info?.state ?? 'unknown'}`} title={info?.lastError ?? undefined}>
        <span className="dot" aria-hidden="true" />
        {info ? syncLabel(info) : 'Checking...'}
      </div>
      <button type="button" className="link outbox-toggle" aria-label="Outbox" aria-expanded={open} title="Queued changes" onClick={() => setOpen(!open)}>
        ▾
      </button>
      {open && (
        <div className="outbox-popover" role="dialog" aria-label="Outbox" onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
          <div className="outbox-head">
            <strong>Outbox</strong>
            <button type="button" onClick={syncNow} disabled={info?.state === 'signed-out'}>
              Sync now
            </button>
          </div>
          {info?.state === 'offline' && <p className="waits">The server cannot be reached; queued changes are sent when it answers again.</p>}
          {info?.lastError && <p className="note">Last error: {info.lastError}</p>}
          {error && <p role="alert">{error}</p>}
          {info && info.items.length > 0 ? (
            <ul aria-label="Queued changes">
              {info.items.map((item) => (
                <li key={item.seq} className={`outbox-item outbox-${item.state}`}>
                  <span>{item.summary}</span>
                  <span className="muted">
                    {item.state}
                    {item.attempts > 0 ? `, ${item.attempts} attempt${item.attempts === 1 ? '' : 's'}` : ''}
                  </span>
                  {item.reason && <span className="outbox-reason">{item.reason}</span>}
                  {item.state === 'refused' && (
                    <button type="button" onClick={() => dismiss(item.seq)}>
                      Dismiss
                    </button>
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <p className="note">Nothing waits to be sent.</p>
          )}
        </div>
      )}
    </div>
  );
}
