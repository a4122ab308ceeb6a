/**
 * The app's commands (desktop-look.md "Keyboard first": every command in the palette with its
 * shortcut) and their keyboard shortcuts. One table: the palette lists it, the window's key
 * handler ({@link handleShortcut}) and Monaco's keybindings (CodeEditor.tsx) run it.
 */
import { useActivity } from '../components/ActivityRail';
import { requestProposeChanges, useUi } from '../store/ui-slice';
import { noOpenPage, showForOpenPage, usePageActions } from '../pages/page-actions';

/** A shortcut: `mod` is Ctrl, or Cmd on macOS; `chord` is a second key after the first (Ctrl/Cmd+K V). */
export interface Shortcut {
  mod?: boolean;
  shift?: boolean;
  alt?: boolean;
  /** KeyboardEvent.key, lower case for letters ('s', 'p', 'F8', '.') */
  key: string;
  chord?: string;
}

/** One command of the palette. */
export interface Command {
  id: string;
  title: string;
  shortcut?: Shortcut;
  /** why it cannot run now, or null when it can */
  disabledReason(): string | null;
  run(): void | Promise<void>;
}

/** True on macOS (Cmd instead of Ctrl). */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** How a shortcut reads: "Ctrl+Shift+P", "Ctrl+K V", "F8" (⌘ on macOS). */
export function shortcutLabel(s: Shortcut): string {
  const parts: string[] = [];
  if (s.mod) parts.push(isMac ? '⌘' : 'Ctrl');
  if (s.alt) parts.push(isMac ? '⌥' : 'Alt');
  if (s.shift) parts.push('Shift');
  parts.push(s.key.length === 1 ? s.key.toUpperCase() : s.key);
  return parts.join('+') + (s.chord ? ` ${s.chord.toUpperCase()}` : '');
}

/** Opens the Search view (SearchPanel.tsx focuses its text box when it opens; when it is open already, the box takes the focus here). */
function showSearch(): void {
  useActivity.getState().setActivity('search');
  document.querySelector<HTMLInputElement>('input[aria-label="Search in files"]')?.focus();
}

const noEditor = () => (useUi.getState().editor ? null : 'Open a page first.');

/** Every command, in palette order. */
export const COMMANDS: Command[] = [
  { id: 'save', title: 'Save', shortcut: { mod: true, key: 's' }, disabledReason: noEditor, run: () => useUi.getState().editor?.save() },
  { id: 'propose', title: 'Propose changes', shortcut: { mod: true, alt: true, key: 'p' }, disabledReason: () => null, run: requestProposeChanges },
  { id: 'next-problem', title: 'Go to next problem', shortcut: { key: 'F8' }, disabledReason: noEditor, run: () => useUi.getState().editor?.nextProblem() },
  { id: 'toggle-preview', title: 'Toggle preview', shortcut: { mod: true, key: 'k', chord: 'v' }, disabledReason: () => null, run: () => useUi.getState().togglePreview() },
  { id: 'insert-image', title: 'Insert image', disabledReason: noEditor, run: () => useUi.getState().editor?.insertImage() },
  { id: 'fix-all', title: 'Fix all in page', shortcut: { mod: true, alt: true, key: 'f' }, disabledReason: noEditor, run: () => useUi.getState().editor?.fixAll() },
  { id: 'publish', title: 'Publish', disabledReason: () => null, run: () => (useActivity.getState().setActivity('builds'), useUi.getState().requestPublish()) },
  { id: 'search', title: 'Search in files', shortcut: { mod: true, shift: true, key: 'f' }, disabledReason: () => null, run: showSearch },
  { id: 'changes', title: 'Show changes', disabledReason: () => null, run: () => useActivity.getState().setActivity('changes') },
  { id: 'builds', title: 'Show builds', disabledReason: () => null, run: () => useActivity.getState().setActivity('builds') },
  { id: 'new-page', title: 'New page', disabledReason: () => null, run: () => usePageActions.getState().show({ kind: 'new' }) },
  { id: 'rename-page', title: 'Rename page', disabledReason: noOpenPage, run: () => showForOpenPage('rename') },
  { id: 'move-page', title: 'Move page', disabledReason: noOpenPage, run: () => showForOpenPage('move') },
  { id: 'delete-page', title: 'Delete page', disabledReason: noOpenPage, run: () => showForOpenPage('delete') },
  { id: 'go-to-page', title: 'Go to page by title', shortcut: { mod: true, key: 'p' }, disabledReason: () => null, run: () => useUi.getState().openPalette('pages') },
  { id: 'palette', title: 'Show all commands', shortcut: { mod: true, shift: true, key: 'p' }, disabledReason: () => null, run: () => useUi.getState().openPalette('commands') },
];

function matches(s: Shortcut, e: KeyboardEvent): boolean {
  const mod = isMac ? e.metaKey : e.ctrlKey;
  return !!s.mod === mod && !!s.shift === e.shiftKey && !!s.alt === e.altKey && e.key.toLowerCase() === s.key.toLowerCase();
}

/** Pending first key of a chord (Ctrl/Cmd+K), until this time (ms). */
let chordUntil = 0;
const CHORD_MS = 1500;

/**
 * The window's key handler (capture phase): runs the command of a shortcut and stops the key.
 * The Ctrl/Cmd+K chord is left to Monaco's own keybinding when the key comes from inside the editor
 * (Monaco has Ctrl/Cmd+K chords of its own). @returns true when a command ran
 */
export function handleShortcut(e: KeyboardEvent): boolean {
  const inEditor = e.target instanceof Element && !!e.target.closest('.monaco-editor');
  if (chordUntil > Date.now() && !inEditor) {
    chordUntil = 0;
    const cmd = COMMANDS.find((c) => c.shortcut?.chord && c.shortcut.chord === e.key.toLowerCase() && !e.ctrlKey && !e.metaKey);
    if (cmd) {
      e.preventDefault();
      e.stopPropagation();
      void cmd.run();
      return true;
    }
  }
  for (const cmd of COMMANDS) {
    const s = cmd.shortcut;
    if (!s || !matches(s, e)) continue;
    if (s.chord) {
      if (inEditor) return false;
      chordUntil = Date.now() + CHORD_MS;
      e.preventDefault();
      return false;
    }
    if (cmd.disabledReason() !== null && cmd.id !== 'propose') continue;
    e.preventDefault();
    e.stopPropagation();
    void cmd.run();
    return true;
  }
  return false;
}
