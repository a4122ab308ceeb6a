import { useDeferredCommit } from './use-deferred-commit';

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
  const field = useDeferredCommit(value, onCommit, FIELD_DELAY_MS);
  return (
    <label className="visual-field">
      <span>{label}</span>
      <input
        type="text"
        value={field.text}
        disabled={disabled}
        placeholder={placeholder}
        list={list}
        onFocus={() => field.setFocused(true)}
        onBlur={() => {
          field.setFocused(false);
          field.commit(field.text);
        }}
        onChange={(e) => field.type(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && field.commit(field.text)}
      />
    </label>
  );
}
