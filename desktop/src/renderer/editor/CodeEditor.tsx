import { useEffect, useRef } from 'react';
import { languageOf, modelUri, monaco, systemTheme } from './monaco-setup';
import { clearLintMarkers, registerLintCodeActions } from './lint-markers';
import { useUi } from '../store/ui-slice';
import { attachTagClosing, registerMdxCompletions } from './mdx-authoring';
import { filesOf } from './image-insert';

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
  /** called when the caret moves (1-based line and column) */
  onCursor?(line: number, column: number): void;
  /** called when the first visible line changes (scrolling, typing, a new model) */
  onTopLine?(line: number): void;
  /** called with the files pasted (without text) or dropped onto the editor, and where a drop landed (else the caret) */
  onFiles?(files: File[], at: monaco.IPosition | null): void;
}

/**
 * Monaco, left alone by React (uncontrolled): created once, given a new model when `path`
 * changes, and reporting changes through `onChange`. Accessible name: "Editor: <path>". MDX tags close
 * themselves and "/" opens the menu of components (mdx-authoring.ts). Files pasted (a paste without
 * text) or dropped go to `onFiles` (images: image-insert.ts).
 */
export function CodeEditor({ path, initialText, onChange, onReady, onCursor, onTopLine, onFiles }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const changeRef = useRef(onChange);
  changeRef.current = onChange;
  const cursorRef = useRef(onCursor);
  cursorRef.current = onCursor;
  const topRef = useRef(onTopLine);
  topRef.current = onTopLine;
  const filesRef = useRef(onFiles);
  filesRef.current = onFiles;

  useEffect(() => {
    const editor = monaco.editor.create(host.current!, {
      automaticLayout: true,
      minimap: { enabled: false },
      wordWrap: 'on',
      theme: systemTheme(),
      fontSize: 14,
      scrollBeyondLastLine: false,
      ariaLabel: 'Editor',
      lightbulb: { enabled: monaco.editor.ShowLightbulbIconMode.OnCode },
    });
    registerLintCodeActions();
    registerMdxCompletions();
    const tagClosing = attachTagClosing(editor);
    editorRef.current = editor;
    const sub = editor.onDidChangeModelContent(() => changeRef.current(editor.getValue()));
    const cursor = editor.onDidChangeCursorPosition((e) => cursorRef.current?.(e.position.lineNumber, e.position.column));
    let lastTop = 0;
    const reportTop = () => {
      const top = editor.getVisibleRanges()[0]?.startLineNumber ?? 1;
      if (top !== lastTop) topRef.current?.((lastTop = top));
    };
    const scroll = editor.onDidScrollChange(reportTop);
    const layout = editor.onDidChangeModel(() => {
      lastTop = 0;
      setTimeout(reportTop, 0);
    });
    // Ctrl/Cmd+K V inside the editor (Monaco owns Ctrl/Cmd+K chords there; commands.ts handles it elsewhere)
    editor.addCommand(monaco.KeyMod.chord(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyK, monaco.KeyCode.KeyV), () => useUi.getState().togglePreview());
    // files pasted or dropped become images (image-insert.ts); taken in the capture phase, before Monaco's own handlers
    const hostEl = host.current!;
    const onPaste = (e: ClipboardEvent) => {
      const files = filesOf(e.clipboardData, 'paste');
      if (files.length === 0 || !filesRef.current) return;
      e.preventDefault();
      e.stopPropagation();
      filesRef.current(files, null);
    };
    const onDragOver = (e: DragEvent) => {
      if (!e.dataTransfer?.types.includes('Files') || !filesRef.current) return;
      e.preventDefault();
      e.stopPropagation();
      e.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (e: DragEvent) => {
      const files = filesOf(e.dataTransfer, 'drop');
      if (files.length === 0 || !filesRef.current) return;
      e.preventDefault();
      e.stopPropagation();
      filesRef.current(files, editor.getTargetAtClientPoint(e.clientX, e.clientY)?.position ?? null);
    };
    hostEl.addEventListener('paste', onPaste, true);
    hostEl.addEventListener('dragover', onDragOver, true);
    hostEl.addEventListener('drop', onDrop, true);
    onReady?.(editor);
    return () => {
      hostEl.removeEventListener('paste', onPaste, true);
      hostEl.removeEventListener('dragover', onDragOver, true);
      hostEl.removeEventListener('drop', onDrop, true);
      sub.dispose();
      tagClosing.dispose();
      cursor.dispose();
      scroll.dispose();
      layout.dispose();
      const model = editor.getModel();
      if (model) clearLintMarkers(model);
      model?.dispose();
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
    if (old && old !== model) {
      clearLintMarkers(old);
      old.dispose();
    }
    // the text is read when the path changes only: Monaco owns it afterwards
  }, [path]);

  return <div ref={host} className="editor-host" />;
}
