import { useRef } from 'react';
import { COMMIT_DELAY_MS } from './EditableText';
import { useDeferredCommit } from './use-deferred-commit';

/**
 * A code block's text in a monospace field named "Code": the writer's text goes to `onCommit` after
 * a pause in typing and on blur; the page's text shows again while the field does not have the focus.
 * Tab inserts two spaces (Escape, then Tab, leaves the field).
 */
export function CodeText({ code, onCommit }: { code: string; onCommit(code: string): void }) {
  const field = useDeferredCommit(code, onCommit, COMMIT_DELAY_MS);
  const escaped = useRef(false);
  const text = field.text;
  return (
    <textarea
      className="visual-code-text"
      aria-label="Code"
      spellCheck={false}
      value={text}
      rows={Math.max(1, text.split('\n').length)}
      onFocus={() => field.setFocused(true)}
      onBlur={() => {
        field.setFocused(false);
        field.commit(text);
      }}
      onChange={(e) => field.type(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') escaped.current = true;
        else if (e.key === 'Tab' && !e.shiftKey && !escaped.current) {
          e.preventDefault();
          const el = e.currentTarget;
          const at = el.selectionStart;
          const v = `${text.slice(0, at)}  ${text.slice(el.selectionEnd)}`;
          field.type(v);
          requestAnimationFrame(() => el.setSelectionRange(at + 2, at + 2));
        } else escaped.current = false;
      }}
    />
  );
}
