/**
 * Writing MDX in Monaco: tags that close themselves (tag-close.ts) and the "/" menu of components
 * (mdx-snippets.ts). The menu opens on a "/" typed at the start of a line or after whitespace,
 * outside fenced code blocks; choosing an entry replaces the "/" and what was typed after it.
 */
import { monaco } from './monaco-editor';
import { closingTagFor, insideCodeFence } from './tag-close';
import { MDX_SNIPPETS } from './mdx-snippets';

/** Languages the page editor gives .md and .mdx files (monaco-setup.ts `languageOf`). */
const MDX_LANGUAGES = ['markdown', 'mdx'];

let registered = false;

/** Registers the "/" menu's completion provider for Markdown and MDX models (once per window). */
export function registerMdxCompletions(): void {
  if (registered) return;
  registered = true;
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
          })),
        };
      },
    });
  }
}

/**
 * Closes MDX tags in `editor` as they are typed: after a `>` typed at the caret ends an opening
 * tag, its closing tag is inserted after the caret (the caret stays between the two). Undo and
 * redo, pastes and edits of several ranges are left alone. @returns the listener, to dispose
 */
export function attachTagClosing(editor: monaco.editor.IStandaloneCodeEditor): monaco.IDisposable {
  return editor.onDidChangeModelContent((e) => {
    if (e.isUndoing || e.isRedoing || e.isFlush || e.changes.length !== 1) return;
    const change = e.changes[0]!;
    if (change.text !== '>' || change.rangeLength !== 0) return;
    const model = editor.getModel();
    if (!model || !MDX_LANGUAGES.includes(model.getLanguageId())) return;
    const at = model.getPositionAt(change.rangeOffset + 1);
    const value = model.getValue();
    const offset = change.rangeOffset + 1;
    const closing = closingTagFor(value.slice(0, offset), value.slice(offset, offset + 200));
    if (!closing) return;
    // after the current edit finishes (no edit from inside a change event)
    queueMicrotask(() => {
      if (editor.getModel() !== model) return;
      const range = new monaco.Range(at.lineNumber, at.column, at.lineNumber, at.column);
      editor.executeEdits('mdx-tag-close', [{ range, text: closing, forceMoveMarkers: false }], [new monaco.Selection(at.lineNumber, at.column, at.lineNumber, at.column)]);
    });
  });
}
