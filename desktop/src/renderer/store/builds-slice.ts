import { create } from 'zustand';

/**
 * The Builds view's state (a zustand slice beside app-store.ts), shared by the Builds panel (side
 * panel: Publish, Build preview, recent builds) and the build view (editor area: the chosen build's
 * status, step timings and log). Ids and flags only: builds and log lines are read from the core.
 * `version` goes up when a build was started or ended, so that both read the builds again.
 */
export interface BuildsSlice {
  /** the build shown in the editor area, or null */
  current: string | null;
  version: number;
  show(buildId: string | null): void;
  /** marks the project's builds as changed (they are read again) */
  bump(): void;
  /** forgets the shown build (another project) */
  reset(): void;
}

/** The Builds view's store. */
export const useBuilds = create<BuildsSlice>()((set) => ({
  current: null,
  version: 0,
  show: (current) => set({ current }),
  bump: () => set((s) => ({ version: s.version + 1 })),
  reset: () => set((s) => ({ current: null, version: s.version + 1 })),
}));
