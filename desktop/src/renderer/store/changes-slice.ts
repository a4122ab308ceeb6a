import { create } from 'zustand';
import type { ChangedFile } from '../../core/change-list';
import { core } from '../trpc';

/** How long after a save the list is read again, in ms (typing saves often: one read per pause). */
const REFRESH_DELAY_MS = 250;

/**
 * The open project's local edits (`workspace.changedFiles`): the tree marks them, the Changes view
 * lists them, and `diffPath` is the change whose diff the editor area shows. Read again after saves,
 * page actions and refreshes ({@link ChangesState.refresh}, {@link ChangesState.refreshSoon}).
 */
export interface ChangesState {
  projectId: string | null;
  items: ChangedFile[];
  /** the change whose diff is shown, or null */
  diffPath: string | null;
  showDiff(path: string | null): void;
  /** reads the list of `projectId` now (an error leaves the last list) */
  refresh(projectId: string): Promise<void>;
  /** reads the list after a short pause (coalescing the saves of a typing burst) */
  refreshSoon(projectId: string): void;
  reset(): void;
}

let timer: ReturnType<typeof setTimeout> | undefined;

/** The changes store. */
export const useChanges = create<ChangesState>()((set, get) => ({
  projectId: null,
  items: [],
  diffPath: null,
  showDiff: (diffPath) => set({ diffPath }),
  refresh: async (projectId) => {
    try {
      const items = await core.workspace.changedFiles.query({ projectId });
      set((s) => ({ projectId, items, diffPath: s.diffPath && items.some((i) => i.path === s.diffPath) ? s.diffPath : null }));
    } catch {
      // the list stays as last read; the next save reads it again
    }
  },
  refreshSoon: (projectId) => {
    clearTimeout(timer);
    timer = setTimeout(() => void get().refresh(projectId), REFRESH_DELAY_MS);
  },
  reset: () => {
    clearTimeout(timer);
    set({ projectId: null, items: [], diffPath: null });
  },
}));
