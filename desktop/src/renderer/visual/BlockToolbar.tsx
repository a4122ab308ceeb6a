import type { ReactNode } from 'react';
import type { VisualBlock } from '@quire/shared/docs/visual/index';
import { DeferredInput } from './DeferredInput';

/** Props of {@link BlockToolbar}. */
export interface BlockToolbarProps {
  /** the selected block, or null */
  block: VisualBlock | null;
  menuOpen: boolean;
  onInsert(): void;
  onHeadingLevel(level: number): void;
  onTurnIntoList(): void;
  onTurnIntoCallout(): void;
  onLanguage(lang: string): void;
  onDelete(): void;
  /** more controls at the toolbar's end (the inline formatting buttons, InlineTools.tsx) */
  children?: ReactNode;
}

/** Languages offered by the code block's language picker (any other can be typed). */
const LANGUAGES = ['bash', 'javascript', 'typescript', 'json', 'yaml', 'python', 'go', 'rust', 'java', 'html', 'css', 'sql', 'mdx', 'text'];

/**
 * The visual mode's block toolbar (a `toolbar`; arrows are not trapped, Tab moves through it): "Insert block"
 * (the slash menu), "Heading level" for paragraphs and headings, "Turn into list", "Turn into callout",
 * a code block's "Language", "Delete block", then `children` (Bold, Italic, Link). Controls that do not apply
 * to the selected block are disabled.
 */
export function BlockToolbar(props: BlockToolbarProps) {
  const { block, menuOpen, onInsert, onHeadingLevel, onTurnIntoList, onTurnIntoCallout, onLanguage, onDelete, children } = props;
  const textual = block?.kind === 'paragraph' || block?.kind === 'heading';
  const level = block?.kind === 'heading' ? (block.depth ?? 1) : 0;
  return (
    <div role="toolbar" aria-label="Block tools" className="visual-toolbar">
      <button type="button" aria-haspopup="menu" aria-expanded={menuOpen} onMouseDown={(e) => e.preventDefault()} onClick={onInsert}>
        Insert block
      </button>
      <label>
        <span>Heading level</span>
        <select disabled={!textual} value={level} onChange={(e) => onHeadingLevel(Number(e.target.value))}>
          <option value={0}>Paragraph</option>
          {[1, 2, 3, 4, 5, 6].map((n) => (
            <option key={n} value={n}>
              Heading {n}
            </option>
          ))}
        </select>
      </label>
      <button type="button" disabled={block?.kind !== 'paragraph'} onMouseDown={(e) => e.preventDefault()} onClick={onTurnIntoList}>
        Turn into list
      </button>
      <button type="button" disabled={!block || block.kind === 'readonly'} onMouseDown={(e) => e.preventDefault()} onClick={onTurnIntoCallout}>
        Turn into callout
      </button>
      <button type="button" disabled={!block} onMouseDown={(e) => e.preventDefault()} onClick={onDelete}>
        Delete block
      </button>
      {block?.kind === 'code' && (
        <>
          <DeferredInput key={block.id} label="Language" value={block.lang ?? ''} list="visual-languages" onCommit={onLanguage} />
          <datalist id="visual-languages">
            {LANGUAGES.map((l) => (
              <option key={l} value={l} />
            ))}
          </datalist>
        </>
      )}
      {children}
    </div>
  );
}
