import type { TextEdit } from '@quire/shared/docs/markdown/text-edits';
import { monaco } from '../editor/monaco-setup';

/**
 * Applies one engine edit (UTF-16 offsets into the model's text) to the Monaco model as one undoable
 * step: the model stays the page's only text, so saving, the preview, lint and undo/redo follow a
 * visual edit as they follow typing. Returns the model's version after the edit (the visual view
 * tells its own edits from others' with it), or null when the edit changes nothing.
 */
export function applyModelEdit(model: monaco.editor.ITextModel, edit: TextEdit): number | null {
  const current = model.getValueInRange(rangeOf(model, edit.from, edit.to));
  if (current === edit.text) return null;
  model.pushStackElement();
  model.pushEditOperations([], [{ range: rangeOf(model, edit.from, edit.to), text: edit.text }], () => null);
  model.pushStackElement();
  return model.getVersionId();
}

/** The Monaco range of the offsets `[from, to)` of `model`'s text. */
export function rangeOf(model: monaco.editor.ITextModel, from: number, to: number): monaco.Range {
  const a = model.getPositionAt(from);
  const b = model.getPositionAt(to);
  return new monaco.Range(a.lineNumber, a.column, b.lineNumber, b.column);
}

/** The 1-based line of offset `offset` in `text`. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
