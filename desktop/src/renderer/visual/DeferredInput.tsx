import { useEffect, useRef, useState } from 'react';

/** Pause after typing in a form field before the value goes into the page, in ms. */
const FIELD_DELAY_MS = 400;

/**
 * A labelled text field that shows `value` from the page while not focused and hands the writer's
 * text to `onCommit` after a pause in typing, on Enter and on blur (never twice for the same text).
 */
export function DeferredInput({ label, value, onCommit, disabled, placeholder, list }: {
  label: string;
  value: string;
  onCommit(value: string): void;
  disabled?: boolean;
  placeholder?: string;
  /** id of a datalist of suggestions */
  list?: string;
}) {
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
  return (
    <label className="visual-field">
      <span>{label}</span>
      <input
        type="text"
        value={text}
        disabled={disabled}
        placeholder={placeholder}
        list={list}
        onFocus={() => (focused.current = true)}
        onBlur={() => {
          focused.current = false;
          commit(text);
        }}
        onChange={(e) => {
          const v = e.target.value;
          setText(v);
          window.clearTimeout(timer.current);
          timer.current = window.setTimeout(() => commit(v), FIELD_DELAY_MS);
        }}
        onKeyDown={(e) => e.key === 'Enter' && commit(text)}
      />
    </label>
  );
}
