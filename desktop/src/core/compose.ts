/**
 * The composition root of the desktop core (architecture.md "desktop", "Apps are built by a
 * function and started separately"): {@link createCore} opens the local store and builds every
 * service once, wiring each to what it needs; the tRPC context (trpc.ts) is the object it returns,
 * so routers take their service from `ctx`. Starting the background sync and closing everything
 * happen here too, in one place.
 */
import { Builds } from './builds';
import { Core } from './core';
import { LocalFolders } from './local-folder';
import { Outbox } from './outbox';
import { PreviewFiles } from './preview-files';
import { PreviewService } from './preview-service';
import { ReviewCache } from './review-cache';
import { ReviewViewed } from './review-viewed';
import { Reviews } from './reviews';
import { openStore, type LocalStore } from './store';
import { SyncClient, type SyncOptions } from './sync-client';
import type { TokenVault } from './token-vault';

/** Options of {@link createCore}. */
export interface CoreOptions {
  /** where the local store lives */
  dataDir: string;
  /** where the session token lives (file in web mode, safeStorage in Electron) */
  vault: TokenVault;
  /** timing of the sync client (tests pass `{auto: false}` to sync only on `sync.now`) */
  sync?: SyncOptions;
}

/**
 * The services of one desktop core, each made once over one local store; also the tRPC context of
 * the core router (`ctx.core`, `ctx.reviews`, `ctx.sync`, ...).
 */
export interface DesktopCore {
  /** the local SQLite store (store.ts) */
  readonly store: LocalStore;
  /** session, projects, workspace files, lint and preview (core.ts) */
  readonly core: Core;
  /** the durable outbox of review mutations (outbox.ts); the sync client pushes it, the review actions enqueue into it */
  readonly outbox: Outbox;
  /** the reviews as last pulled (review-cache.ts) */
  readonly reviewCache: ReviewCache;
  /** the offline review actions (reviews.ts) */
  readonly reviews: Reviews;
  /** the files marked "Viewed" per review and revision (review-viewed.ts; local only) */
  readonly reviewViewed: ReviewViewed;
  /** push and pull of the outbox and reviews (sync-client.ts) */
  readonly sync: SyncClient;
  /** publishing: trigger, list and watch builds (builds.ts) */
  readonly builds: Builds;
  /** projects opened from folders on this computer (local-folder.ts) */
  readonly localFolders: LocalFolders;
  /** the preview worker (preview-service.ts) */
  readonly preview: PreviewService;
  /** the workspace files and KaTeX assets the preview frames load (preview-files.ts) */
  readonly previewFiles: PreviewFiles;
  /** Starts the background sync (at once, then on its timers; nothing when `sync.auto` is false). */
  start(): void;
  /** Stops the sync's timers and the build watches, stops the preview worker and closes the store. */
  close(): Promise<void>;
}

/** Opens the local store in `options.dataDir` and builds the core's services over it (none started: see {@link DesktopCore.start}). */
export function createCore(options: CoreOptions): DesktopCore {
  const store = openStore(options.dataDir);
  const preview = new PreviewService();
  // Core and LocalFolders call each other (a saved edit of a local folder goes to disk; opening a
  // folder reloads the preview): each reaches the other through a callback made here.
  const localFolders: LocalFolders = new LocalFolders(store, (projectId) => core.filesChanged(projectId));
  const core: Core = new Core({
    store,
    vault: options.vault,
    preview,
    fileWritten: (projectId, path, content) => localFolders.writeThrough(projectId, path, content),
    fileDeleted: (projectId, path) => localFolders.deleteThrough(projectId, path),
  });

  const session = () => (store.db.open ? store.session() : null);
  const client = () => {
    if (!session()) return null;
    try {
      return core.sessionClient();
    } catch {
      return null;
    }
  };
  // Each account has its own client id (outbox.ts): the server binds one to the user who first pushed with it.
  const outbox = new Outbox(store, () => {
    const s = session();
    return s ? `${s.serverUrl} ${s.userId}` : null;
  });
  const reviewCache = new ReviewCache(store);
  const sync = new SyncClient({ store, outbox, cache: reviewCache, client }, options.sync);
  const reviews = new Reviews({
    store,
    outbox,
    cache: reviewCache,
    session,
    client: () => client()?.client ?? null,
    queued: () => sync.notify(),
    flush: () => sync.sync(),
  });
  const builds = new Builds(core);

  return {
    store,
    core,
    outbox,
    reviewCache,
    reviews,
    reviewViewed: new ReviewViewed({ store, serverId: (id) => outbox.serverId(id), localId: (id) => outbox.localId(id) }),
    sync,
    builds,
    localFolders,
    preview,
    previewFiles: new PreviewFiles(core, localFolders),
    start: () => sync.start(),
    close: async () => {
      sync.stop();
      builds.close();
      await preview.close();
      store.close();
    },
  };
}
