import { create } from 'zustand';

/** A place to show in the editor once its file is open: 1-based line and column. */
export interface RevealRequest {
  path: string;
  line: number;
  column: number;
  /** numbers the requests, so that the same place asked twice is shown twice */
  seq: number;
}

/** The reveal store: the pending request, and how to make and settle one. */
interface RevealState {
  request: RevealRequest | null;
  reveal(path: string, line: number, column: number): void;
  done(seq: number): void;
}

/**
 * Where the page editor should put the caret when `path` is (or becomes) its file: set by the
 * search results, taken by PageEditor once its model holds the file.
 */
export const useReveal = create<RevealState>()((set) => ({
  request: null,
  reveal: (path, line, column) => set((s) => ({ request: { path, line, column, seq: (s.request?.seq ?? 0) + 1 } })),
  done: (seq) => set((s) => (s.request?.seq === seq ? { request: null } : s)),
}));
