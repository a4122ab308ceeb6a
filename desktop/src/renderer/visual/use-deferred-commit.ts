import { useEffect, useRef, useState } from 'react';

/** What {@link useDeferredCommit} gives a field. */
export interface DeferredCommit {
  /** the field's text: the page's value while the field is not focused, else the writer's */
  text: string;
  /** the writer typed `value`: shown at once, handed on after the pause */
  type(value: string): void;
  /** hands `value` on now (Enter, blur), unless it is what was last handed on or came from the page */
  commit(value: string): void;
  /** call on focus and blur: a focused field keeps the writer's text when the page's value changes */
  setFocused(focused: boolean): void;
}

/**
 * The state of a visual-mode form field whose text goes into the page after a pause in typing of
 * `delayMs` milliseconds, on Enter and on blur, never twice for the same text. `value` is the
 * page's current value; `onCommit` receives the writer's text.
 */
export function useDeferredCommit(value: string, onCommit: (value: string) => void, delayMs: number): DeferredCommit {
  const [text, setText] = useState(value);
  const focused = useRef(false);
  const sent = useRef(value);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!focused.current) setText(value);
    sent.current = value;
  }, [value]);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const commit = (v: string) => {
    window.clearTimeout(timer.current);
    if (v === sent.current) return;
    sent.current = v;
    onCommit(v);
  };
  return {
    text,
    commit,
    type: (v) => {
      setText(v);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => commit(v), delayMs);
    },
    setFocused: (f) => {
      focused.current = f;
    },
  };
}
