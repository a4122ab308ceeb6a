import { useEditorMode, type EditorMode } from './mode-store';

/** The page's "Visual" / "MDX" switch: two toggle buttons (`aria-pressed`), the choice remembered (mode-store.ts). */
export function ModeSwitch({ onSwitch }: { onSwitch?(mode: EditorMode): void }) {
  const mode = useEditorMode((s) => s.mode);
  const set = (m: EditorMode) => {
    useEditorMode.getState().setMode(m);
    onSwitch?.(m);
  };
  return (
    <div className="mode-switch" role="group" aria-label="Editor mode">
      <button type="button" aria-pressed={mode === 'visual'} onClick={() => set('visual')} title="Edit the page as the site shows it">
        Visual
      </button>
      <button type="button" aria-pressed={mode === 'mdx'} onClick={() => set('mdx')} title="Edit the page's MDX source">
        MDX
      </button>
    </div>
  );
}
