import { useEffect, useRef, useState } from 'react';
import { COMMIT_DELAY_MS } from './EditableText';

/**
 * A code block's text in a monospace field named "Code": the writer's text goes to `onCommit` after
 * a pause in typing and on blur; the page's text shows again while the field does not have the focus.
 * Tab inserts two spaces (Escape, then Tab, leaves the field).
 */
export function CodeText({ code, onCommit }: { code: string; onCommit(code: string): void }) {
  const [text, setText] = useState(code);
  const focused = useRef(false);
  const escaped = useRef(false);
  const sent = useRef(code);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!focused.current) setText(code);
    sent.current = code;
  }, [code]);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const commit = (v: string) => {
    window.clearTimeout(timer.current);
    if (v === sent.current) return;
    sent.current = v;
    onCommit(v);
  };
  return (
    <textarea
      className="visual-code-text"
      aria-label="Code"
      spellCheck={false}
      value={text}
      rows={Math.max(1, text.split('\n').length)}
      onFocus={() => (focused.current = true)}
      onBlur={() => {
        focused.current = false;
        commit(text);
      }}
      onChange={(e) => {
        const v = e.target.value;
        setText(v);
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => commit(v), COMMIT_DELAY_MS);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') escaped.current = true;
        else if (e.key === 'Tab' && !e.shiftKey && !escaped.current) {
          e.preventDefault();
          const el = e.currentTarget;
          const at = el.selectionStart;
          const v = `${text.slice(0, at)}  ${text.slice(el.selectionEnd)}`;
          setText(v);
          requestAnimationFrame(() => el.setSelectionRange(at + 2, at + 2));
        } else escaped.current = false;
      }}
    />
  );
}
