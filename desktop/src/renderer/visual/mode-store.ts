import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** How a page is edited: the MDX source in Monaco, or the visual block editor over the same Monaco model. */
export type EditorMode = 'mdx' | 'visual';

/** The writer's choice of editor mode, kept across restarts (the renderer's localStorage, like the last server address). */
export interface EditorModeState {
  mode: EditorMode;
  setMode(mode: EditorMode): void;
}

/** Where the choice is stored (localStorage key). */
export const EDITOR_MODE_KEY = 'quire.editor-mode';

/** The editor mode store: one choice for every page, remembered for this user of the app. */
export const useEditorMode = create<EditorModeState>()(
  persist((set) => ({ mode: 'mdx', setMode: (mode) => set({ mode }) }), { name: EDITOR_MODE_KEY }),
);
