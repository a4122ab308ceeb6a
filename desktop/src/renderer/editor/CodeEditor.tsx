import { useEffect, useRef } from 'react';
import { languageOf, modelUri, monaco, systemTheme } from './monaco-setup';

/** Props of {@link CodeEditor}. */
export interface CodeEditorProps {
  /** repository path of the file (decides the language; a new path replaces the model) */
  path: string;
  /** the text the file opens with (read once per path) */
  initialText: string;
  /** called with the full text after every change */
  onChange(text: string): void;
  /** receives the editor once created (for fixes and markers) */
  onReady?(editor: monaco.editor.IStandaloneCodeEditor | null): void;
}

/**
 * Monaco, left alone by React (uncontrolled): created once, given a new model when `path`
 * changes, and reporting changes through `onChange`. Accessible name: "Editor: <path>".
 */
export function CodeEditor({ path, initialText, onChange, onReady }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const changeRef = useRef(onChange);
  changeRef.current = onChange;

  useEffect(() => {
    const editor = monaco.editor.create(host.current!, {
      automaticLayout: true,
      minimap: { enabled: false },
      wordWrap: 'on',
      theme: systemTheme(),
      fontSize: 14,
      scrollBeyondLastLine: false,
      ariaLabel: 'Editor',
    });
    editorRef.current = editor;
    const sub = editor.onDidChangeModelContent(() => changeRef.current(editor.getValue()));
    onReady?.(editor);
    return () => {
      sub.dispose();
      editor.getModel()?.dispose();
      editor.dispose();
      editorRef.current = null;
      onReady?.(null);
    };
  }, []);

  useEffect(() => {
    const editor = editorRef.current!;
    const old = editor.getModel();
    const uri = modelUri(path);
    if (old?.uri.toString() !== uri.toString()) monaco.editor.getModel(uri)?.dispose();
    const model = old?.uri.toString() === uri.toString() ? old : monaco.editor.createModel(initialText, languageOf(path), uri);
    editor.setModel(model);
    editor.updateOptions({ ariaLabel: `Editor: ${path}` });
    if (old && old !== model) old.dispose();
    // the text is read when the path changes only: Monaco owns it afterwards
  }, [path]);

  return <div ref={host} className="editor-host" />;
}
