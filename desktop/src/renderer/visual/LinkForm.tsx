import { useState, type FormEvent } from 'react';
import { linkUrlProblem } from './inline-format';

/** Props of {@link LinkForm}. */
export interface LinkFormProps {
  /** the href of the link the selection is in ('' when it is in none) */
  url: string;
  /** the selection is in a link: "Remove link" is offered */
  inLink: boolean;
  /** called with an accepted URL, trimmed but otherwise as typed (relative paths such as `/quickstart` allowed) */
  onApply(url: string): void;
  onRemove(): void;
  /** "Cancel" or Escape */
  onCancel(): void;
}

/**
 * The visual mode's "Link" form (a non-modal dialog named "Link", opened by the toolbar's "Link" or Ctrl/Cmd+K):
 * a "Link URL" textbox, "Apply" (also Enter), "Remove link" when the selection is in a link, and "Cancel" (also
 * Escape). An empty URL and URLs the site would not link to (`javascript:`...; inline-format.ts `linkUrlProblem`)
 * are refused with a visible message.
 */
export function LinkForm({ url, inLink, onApply, onRemove, onCancel }: LinkFormProps) {
  const [text, setText] = useState(url);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const why = linkUrlProblem(text);
    setProblem(why);
    if (!why) onApply(text.trim());
  };
  return (
    <div
      role="dialog"
      aria-label="Link"
      className="visual-link-form"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        onCancel();
      }}
    >
      <form onSubmit={submit}>
        <label className="visual-field">
          <span>Link URL</span>
          <input
            type="text"
            autoFocus
            value={text}
            placeholder="/page or https://…"
            aria-invalid={problem !== null}
            aria-describedby={problem ? 'visual-link-problem' : undefined}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        {problem && (
          <p role="alert" id="visual-link-problem" className="visual-link-problem">
            {problem}
          </p>
        )}
        <div className="visual-link-actions">
          <button type="submit">Apply</button>
          {inLink && (
            <button type="button" onClick={onRemove}>
              Remove link
            </button>
          )}
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}
