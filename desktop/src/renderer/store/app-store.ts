import { create } from 'zustand';
import type { SessionStatus } from '../../core/core';
import type { SyncStatusView } from '../../core/sync-client';
import type { CachedProject } from '../../core/store';

/**
 * The renderer's state, in zustand slices: session, projects, the open workspace and page, sync.
 * It holds ids and flags, never the text being typed (Monaco owns it; architecture.md).
 */
export interface SessionSlice {
  session: SessionStatus | null;
  setSession(s: SessionStatus): void;
}

export interface ProjectsSlice {
  projects: CachedProject[];
  projectsOffline: boolean;
  setProjects(items: CachedProject[], offline: boolean): void;
}

export interface WorkspaceSlice {
  /** the opened project */
  projectId: string | null;
  /** the repository path of the page in the editor */
  openPath: string | null;
  openProject(projectId: string | null): void;
  openFile(path: string | null): void;
}

export interface SyncSlice {
  sync: SyncStatusView['state'] | null;
  setSync(state: SyncStatusView['state']): void;
}

export type AppState = SessionSlice & ProjectsSlice & WorkspaceSlice & SyncSlice;

/** The app store. */
export const useApp = create<AppState>()((set) => ({
  session: null,
  setSession: (session) => set({ session }),
  projects: [],
  projectsOffline: false,
  setProjects: (projects, projectsOffline) => set({ projects, projectsOffline }),
  projectId: null,
  openPath: null,
  openProject: (projectId) => set({ projectId, openPath: null }),
  openFile: (openPath) => set({ openPath }),
  sync: null,
  setSync: (sync) => set({ sync }),
}));
