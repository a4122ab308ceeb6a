import { useEffect, useRef, type KeyboardEvent } from 'react';
import { COMMIT_NOW_EVENT } from './inline-format';

/** Pause after the last keystroke before a block's text goes into the page, in ms. */
export const COMMIT_DELAY_MS = 400;

/** Props of {@link EditableText}. */
export interface EditableTextProps {
  /** the block's inline content as simple HTML (the engine's `blockEditableHtml`) */
  html: string;
  /** bumped when the page changed by something else than this view's own edits (undo, MDX mode): the text is shown again */
  generation: number;
  /** the element the site draws the block with ('p', 'h2', 'ul', 'div'...) */
  as: 'p' | 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6' | 'ul' | 'ol' | 'blockquote' | 'table' | 'div';
  className?: string;
  /** accessible name, only for a block without text of its own (a new paragraph): otherwise its text names it */
  label?: string;
  /** called with the element's innerHTML after a pause in typing and on blur */
  onCommit(html: string): void;
  /** keys not handled here (the slash menu, Escape) */
  onKeyDown?(e: KeyboardEvent<HTMLElement>, element: HTMLElement): void;
  onFocus?(): void;
  /** takes the focus when mounted (a new paragraph) */
  autoFocus?: boolean;
}

/**
 * One block's text edited in place (contenteditable, uncontrolled): the HTML is written into the
 * element when it changes while the element does not have the focus, or when `generation` moves
 * (an undo, an edit in MDX mode), so the caret never jumps while the writer types. The text goes to
 * `onCommit` after {@link COMMIT_DELAY_MS} without typing, when the block loses the focus, and at once on the
 * element's {@link COMMIT_NOW_EVENT} (the toolbar's Bold, Italic and Link, inline-format.ts `commitNow`).
 */
export function EditableText({ html, generation, as: Tag, className, label, onCommit, onKeyDown, onFocus, autoFocus }: EditableTextProps) {
  const el = useRef<HTMLElement>(null);
  const timer = useRef<number | undefined>(undefined);
  /** what was last written into which element (a heading turned paragraph is a new element) */
  const shown = useRef<{ html: string; generation: number; node: HTMLElement | null } | null>(null);
  const commitRef = useRef(onCommit);
  commitRef.current = onCommit;

  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const last = shown.current;
    const forced = last !== null && (last.generation !== generation || last.node !== node);
    if (last === null || forced || (last.html !== html && document.activeElement !== node)) {
      node.innerHTML = html;
      shown.current = { html, generation, node };
    }
  }, [html, generation, Tag]);

  useEffect(() => {
    if (autoFocus) el.current?.focus();
    return () => window.clearTimeout(timer.current);
  }, []);

  const commit = () => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    const node = el.current;
    if (!node) return;
    const now = node.innerHTML;
    if (shown.current && now === shown.current.html) return;
    shown.current = { html: now, generation, node };
    commitRef.current(now);
  };
  const commitNowRef = useRef(commit);
  commitNowRef.current = commit;

  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const onCommitNow = () => commitNowRef.current();
    node.addEventListener(COMMIT_NOW_EVENT, onCommitNow);
    return () => node.removeEventListener(COMMIT_NOW_EVENT, onCommitNow);
  }, [Tag]);

  return (
    <Tag
      ref={el as never}
      className={`visual-editable${className ? ` ${className}` : ''}`}
      contentEditable
      suppressContentEditableWarning
      spellCheck
      aria-label={label}
      data-visual-editable=""
      onInput={() => {
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(commit, COMMIT_DELAY_MS);
      }}
      onBlur={commit}
      onFocus={onFocus}
      onKeyDown={(e) => onKeyDown?.(e, el.current!)}
    />
  );
}
