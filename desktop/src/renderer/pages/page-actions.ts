import { create } from 'zustand';
import type { GroupRef } from '@quire/shared/docs/config/navigation-edits';
import { useApp } from '../store/app-store';
import { useUi } from '../store/ui-slice';

/** A page dialog to show: new page (in a group, when started from one), or rename / move / delete of a file. */
export type PageDialog =
  | { kind: 'new'; group?: GroupRef }
  | { kind: 'rename' | 'move' | 'delete'; file: string; title: string; from?: GroupRef };

/**
 * The page operations' UI state (desktop-look.md "Pages": new page and rename from the context
 * menu): which page dialog is open, and `changes`, bumped after each operation so the workspace
 * reads its tree again; once it did, it sets `loaded` to `changes` and the tree item of `focus`
 * (a file) takes the focus.
 */
export interface PageActionsState {
  dialog: PageDialog | null;
  show(dialog: PageDialog): void;
  close(): void;
  changes: number;
  focus: string | null;
  changed(focus?: string | null): void;
  loaded: number;
  treeLoaded(changes: number): void;
}

/** The page operations' store. */
export const usePageActions = create<PageActionsState>()((set) => ({
  dialog: null,
  show: (dialog) => set({ dialog }),
  close: () => set({ dialog: null }),
  changes: 0,
  focus: null,
  changed: (focus = null) => set((s) => ({ changes: s.changes + 1, focus })),
  loaded: 0,
  treeLoaded: (loaded) => set({ loaded }),
}));

/** Why the open-page commands cannot run, or null. */
export function noOpenPage(): string | null {
  const path = useApp.getState().openPath;
  return path && /\.mdx?$/i.test(path) ? null : 'Open a page first.';
}

/** Shows a dialog for the open page (the command palette's "Rename page", "Move page", "Delete page"). */
export function showForOpenPage(kind: 'rename' | 'move' | 'delete'): void {
  const file = useApp.getState().openPath;
  if (!file) return;
  const title = useUi.getState().pages.find((p) => p.path === file)?.title ?? file;
  usePageActions.getState().show({ kind, file, title });
}
