import { create } from 'zustand';

/** Where the caret is and what the open page holds (the status bar). */
export interface EditorStatus {
  line: number;
  column: number;
  /** words of the page's text (frontmatter, code blocks and markup left out) */
  words: number;
  /** minutes to read at {@link WORDS_PER_MINUTE}, at least 1 for a page with words */
  readingMinutes: number;
  errors: number;
  warnings: number;
  suggestions: number;
}

/** What the open page offers to the command palette and shortcuts (set by PageEditor while mounted). */
export interface EditorActions {
  save(): Promise<void>;
  nextProblem(): void;
  fixAll(): Promise<void>;
  /** opens the file chooser of "Insert image" (the chosen images are added and their Markdown inserted at the caret) */
  insertImage(): void;
}

/** A page of the open project, by title (Ctrl/Cmd+P). */
export interface PageEntry {
  title: string;
  path: string;
}

/**
 * The renderer's UI state beside app-store.ts: the preview toggle, the command palette, publish
 * requests, the status bar's figures, the open page's actions. Holds no page text (Monaco owns it).
 */
export interface UiState {
  previewVisible: boolean;
  togglePreview(): void;
  /** null when closed; 'commands' (Ctrl/Cmd+Shift+P) or 'pages' (Ctrl/Cmd+P) */
  palette: 'commands' | 'pages' | null;
  openPalette(mode: 'commands' | 'pages' | null): void;
  /** bumped by "Publish" from the palette: the Builds panel (shown by commands.ts) starts a production build */
  publishRequests: number;
  requestPublish(): void;
  /** bumped by "Propose changes" (palette, Ctrl/Cmd+Alt+P): see {@link requestProposeChanges} */
  proposeRequests: number;
  status: EditorStatus | null;
  setStatus(patch: Partial<EditorStatus> | null): void;
  /** the branch and base commit of the open workspace */
  workspace: { ref: string; commitSha: string; offline: boolean } | null;
  setWorkspace(ws: UiState['workspace']): void;
  pages: PageEntry[];
  setPages(pages: PageEntry[]): void;
  /** bumped when a saved edit may change the workspace tree (docs.json, a page's frontmatter): the tree is read again */
  treeEdits: number;
  treeChanged(): void;
  editor: EditorActions | null;
  setEditor(actions: EditorActions | null): void;
  /** a short message for the status bar ("Saved", "3 fixes applied"), cleared by the next one */
  notice: string | null;
  setNotice(notice: string | null): void;
}

/** Reading speed used for the status bar's reading time, in words per minute. */
export const WORDS_PER_MINUTE = 200;

/** The name of the window event "Propose changes" dispatches (cancelable: a handler calls preventDefault to take it). */
export const PROPOSE_EVENT = 'quire:propose-changes';

const EMPTY_STATUS: EditorStatus = { line: 1, column: 1, words: 0, readingMinutes: 0, errors: 0, warnings: 0, suggestions: 0 };

/** The UI store. */
export const useUi = create<UiState>()((set) => ({
  previewVisible: true,
  togglePreview: () => set((s) => ({ previewVisible: !s.previewVisible })),
  palette: null,
  openPalette: (palette) => set({ palette }),
  publishRequests: 0,
  requestPublish: () => set((s) => ({ publishRequests: s.publishRequests + 1 })),
  proposeRequests: 0,
  status: null,
  setStatus: (patch) => set((s) => ({ status: patch === null ? null : { ...(s.status ?? EMPTY_STATUS), ...patch } })),
  workspace: null,
  setWorkspace: (workspace) => set({ workspace }),
  pages: [],
  setPages: (pages) => set({ pages }),
  treeEdits: 0,
  treeChanged: () => set((s) => ({ treeEdits: s.treeEdits + 1 })),
  editor: null,
  setEditor: (editor) => set({ editor }),
  notice: null,
  setNotice: (notice) => set({ notice }),
}));

/**
 * "Propose changes" from the palette or its shortcut: bumps `proposeRequests` (the reviews views
 * may subscribe to it) and dispatches the cancelable window event {@link PROPOSE_EVENT}; when no
 * handler takes it (preventDefault), the visible "Propose changes" button is clicked instead.
 */
export function requestProposeChanges(): void {
  useUi.setState((s) => ({ proposeRequests: s.proposeRequests + 1 }));
  const event = new CustomEvent(PROPOSE_EVENT, { cancelable: true });
  if (window.dispatchEvent(event)) {
    const button = [...document.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim() === 'Propose changes');
    if (button) button.click();
    else useUi.getState().setNotice('Propose changes is not available here.');
  }
}

/** The pages of a workspace tree (project-model.ts TreeNode), by title, in navigation order. */
export function pagesOf(nodes: readonly { label: string; kind: string; path?: string; children?: readonly unknown[] }[]): PageEntry[] {
  const out: PageEntry[] = [];
  const walk = (list: readonly { label: string; kind: string; path?: string; children?: readonly unknown[] }[]) => {
    for (const n of list) {
      if (n.kind === 'page' && n.path) out.push({ title: n.label, path: n.path });
      if (n.children) walk(n.children as typeof list);
    }
  };
  walk(nodes);
  return out;
}
