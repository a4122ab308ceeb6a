import { useEffect, useRef, useState, type RefObject } from 'react';
import { LinkForm } from './LinkForm';
import {
  applyLink,
  inlineState,
  linkAt,
  rangeOf,
  removeLink,
  restoreSelection,
  selectedEditable,
  spanOf,
  toggleMark,
  type InlineState,
  type TextSpan,
} from './inline-format';

/** Props of {@link InlineTools}. */
export interface InlineToolsProps {
  /** the visual editor's surface: Ctrl/Cmd+K in one of its editable blocks opens the link form */
  surface: RefObject<HTMLElement | null>;
}

/** The link form's target: the block and the selection as text offsets (they survive the block being drawn again). */
interface LinkTarget {
  el: HTMLElement;
  span: TextSpan;
  url: string;
  inLink: boolean;
}

const NONE: InlineState = { bold: false, italic: false, link: false };

/**
 * The visual mode's inline formatting buttons, inside the block toolbar: "Bold" and "Italic" (aria-pressed tells
 * whether the selection is bold or italic) and "Link", which opens {@link LinkForm} for the selection of the
 * focused editable block (also Ctrl/Cmd+K there). Each acts on the selection (the buttons do not take the focus)
 * and hands the block's text to the page at once, so the Markdown changes (inline-format.ts). The buttons are
 * disabled while no editable block holds the selection.
 */
export function InlineTools({ surface }: InlineToolsProps) {
  const [state, setState] = useState<InlineState | null>(null);
  const [target, setTarget] = useState<LinkTarget | null>(null);
  const openRef = useRef<() => void>(() => {});

  useEffect(() => {
    const update = () => {
      const at = selectedEditable();
      setState(at ? inlineState(at.el, at.range) : null);
    };
    document.addEventListener('selectionchange', update);
    return () => document.removeEventListener('selectionchange', update);
  }, []);

  openRef.current = () => {
    const at = selectedEditable();
    if (!at) return;
    const link = linkAt(at.el, at.range);
    setTarget({ el: at.el, span: spanOf(at.el, at.range), url: link?.getAttribute('href') ?? '', inLink: !!link });
  };

  useEffect(() => {
    const node = surface.current;
    if (!node) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'k') return;
      if (!(e.target instanceof HTMLElement) || !e.target.closest('[data-visual-editable]')) return;
      e.preventDefault();
      openRef.current();
    };
    node.addEventListener('keydown', onKey);
    return () => node.removeEventListener('keydown', onKey);
  }, [surface]);

  const mark = (kind: 'bold' | 'italic') => {
    const at = selectedEditable();
    if (!at) return;
    toggleMark(at.el, kind);
    setState(inlineState(at.el, window.getSelection()!.getRangeAt(0)));
  };
  /** Closes the form; `then` acts on the block (the block is still connected unless the page was redrawn). */
  const close = (then: (t: LinkTarget) => void) => {
    const t = target;
    setTarget(null);
    if (t && t.el.isConnected) then(t);
  };
  const cur = state ?? NONE;

  return (
    <>
      <button type="button" aria-pressed={cur.bold} disabled={!state} onMouseDown={(e) => e.preventDefault()} onClick={() => mark('bold')}>
        Bold
      </button>
      <button type="button" aria-pressed={cur.italic} disabled={!state} onMouseDown={(e) => e.preventDefault()} onClick={() => mark('italic')}>
        Italic
      </button>
      <span className="visual-link-anchor">
        <button
          type="button"
          aria-haspopup="dialog"
          aria-expanded={target !== null}
          aria-keyshortcuts="Control+K Meta+K"
          disabled={!state && !target}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => (target ? close((t) => restoreSelection(t.el, rangeOf(t.el, t.span))) : openRef.current())}
        >
          Link
        </button>
        {target && (
          <LinkForm
            url={target.url}
            inLink={target.inLink}
            onApply={(url) => close((t) => applyLink(t.el, t.span, url))}
            onRemove={() => close((t) => removeLink(t.el, t.span))}
            onCancel={() => close((t) => restoreSelection(t.el, rangeOf(t.el, t.span)))}
          />
        )}
      </span>
    </>
  );
}
