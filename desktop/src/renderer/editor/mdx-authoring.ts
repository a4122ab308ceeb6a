/**
 * Writing MDX in Monaco: tags that close themselves (tag-close.ts) and the "/" menu of components
 * (mdx-snippets.ts). The menu opens on a "/" typed at the start of a line or after whitespace,
 * outside fenced code blocks; choosing an entry replaces the "/" and what was typed after it.
 */
import { monaco } from './monaco-editor';
import { closingTagFor, insideCodeFence } from './tag-close';
import { INSERT_IMAGE_COMMAND, MDX_SNIPPETS } from './mdx-snippets';
import { useUi } from '../store/ui-slice';

/** Languages the page editor gives .md and .mdx files (monaco-setup.ts `languageOf`). */
const MDX_LANGUAGES = ['markdown', 'mdx'];

let registered = false;

/** Registers the "/" menu's completion provider for Markdown and MDX models (once per window). */
export function registerMdxCompletions(): void {
  if (registered) return;
  registered = true;
  monaco.editor.registerCommand(INSERT_IMAGE_COMMAND, () => useUi.getState().editor?.insertImage());
  for (const language of MDX_LANGUAGES) {
    monaco.languages.registerCompletionItemProvider(language, {
      triggerCharacters: ['/'],
      provideCompletionItems(model, position) {
        const line = model.getLineContent(position.lineNumber).slice(0, position.column - 1);
        // "/" at the start of the line or after whitespace, then the letters typed since
        const m = /(^|\s)\/([A-Za-z]*)$/.exec(line);
        if (!m) return { suggestions: [] };
        const before = model.getValueInRange({ startLineNumber: 1, startColumn: 1, endLineNumber: position.lineNumber, endColumn: position.column });
        if (insideCodeFence(before)) return { suggestions: [] };
        const slashColumn = position.column - m[2]!.length - 1;
        const range = new monaco.Range(position.lineNumber, slashColumn, position.lineNumber, position.column);
        return {
          suggestions: MDX_SNIPPETS.map((s, i) => ({
            label: s.label,
            detail: s.detail,
            kind: monaco.languages.CompletionItemKind.Snippet,
            insertText: s.body,
            insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet,
            filterText: `/${s.label}`,
            sortText: String(i).padStart(3, '0'),
            range,
            ...(s.command ? { command: { id: s.command, title: s.label } } : {}),
          })),
        };
      },
    });
  }
}

/** The editor's "text typed" event: in Monaco's editor widget at run time, though not in its typings. */
type TypedEvent = (listener: (text: string) => void) => monaco.IDisposable;

/**
 * Closes MDX tags in `editor` as they are typed: when a typed `>` ends an opening tag (also the `>`
 * Monaco had inserted after a typed `<` and the caret just stepped over), its closing tag is inserted
 * after the caret, which stays between the two. Pastes, undo and redo are left alone: only typing
 * counts (the editor's `onDidType`; without it, a `>` inserted as a one-character edit).
 * @returns the listener, to dispose
 */
export function attachTagClosing(editor: monaco.editor.IStandaloneCodeEditor): monaco.IDisposable {
  const closeAtCaret = () => {
    const model = editor.getModel();
    const at = editor.getPosition();
    if (!model || !at || !MDX_LANGUAGES.includes(model.getLanguageId()) || editor.getSelections()?.length !== 1) return;
    const offset = model.getOffsetAt(at);
    const value = model.getValue();
    const closing = closingTagFor(value.slice(0, offset), value.slice(offset, offset + 200));
    if (!closing) return;
    const here = new monaco.Selection(at.lineNumber, at.column, at.lineNumber, at.column);
    editor.executeEdits('mdx-tag-close', [{ range: here, text: closing }], [here]);
  };
  const onDidType = (editor as unknown as { onDidType?: TypedEvent }).onDidType;
  if (onDidType) return onDidType.call(editor, (text) => text === '>' && closeAtCaret());
  return editor.onDidChangeModelContent((e) => {
    if (e.isUndoing || e.isRedoing || e.isFlush || e.changes.length !== 1) return;
    const change = e.changes[0]!;
    if (change.text === '>' && change.rangeLength === 0) queueMicrotask(closeAtCaret);
  });
}
