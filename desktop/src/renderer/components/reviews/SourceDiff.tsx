import { useEffect, useRef } from 'react';
import { languageOf, monaco, systemTheme } from '../../editor/monaco-setup';
import type { CommentTarget } from '../../store/reviews-slice';
import { CONTEXT, MIN_FOLD, type ChangeTarget } from './diff-nav';
import { nameSourceFolds } from './source-folds';

/** Props of {@link SourceDiff}. */
export interface SourceDiffProps {
  path: string;
  before: string | null;
  after: string | null;
  /** lines that have comments (on the shown side), marked in the gutter */
  commentedLines: number[];
  /** the lines a new comment would be written on, highlighted */
  target: CommentTarget | null;
  /** a line number was clicked (shift extends the range) or lines were selected */
  onPickLines(lineStart: number, lineEnd: number): void;
  /** scroll to the first change once the diff is computed (default false: the diff opens at the top) */
  revealFirstChange?: boolean;
  /** told how many changed blocks the diff has, each time it is computed */
  onChanges?(count: number): void;
  /** the change to move to ("Next change", F7): its first line is revealed in the middle and the cursor put there */
  goTo?: ChangeTarget | null;
}

/**
 * The source diff of one file: Monaco's diff editor, read-only, bundled locally (editor/monaco-setup.ts).
 * Clicking a line number of the new text (shift-click extends) or selecting lines in it picks the
 * lines of a new comment. A deleted file is commented on its old text. Unchanged regions fold,
 * keeping {@link CONTEXT} lines next to each change, behind a button "Show N unchanged lines"
 * (source-folds.ts). Accessible names: "Source before: <path>" and "Source after: <path>".
 */
export function SourceDiff({ path, before, after, commentedLines, target, onPickLines, revealFirstChange = false, onChanges, goTo = null }: SourceDiffProps) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneDiffEditor | null>(null);
  const decorations = useRef<monaco.editor.IEditorDecorationsCollection | null>(null);
  const pick = useRef(onPickLines);
  pick.current = onPickLines;
  const anchorLine = useRef<number | null>(null);
  const counted = useRef(onChanges);
  counted.current = onChanges;
  const changes = useRef<monaco.editor.ILineChange[]>([]);

  useEffect(() => {
    const diff = monaco.editor.createDiffEditor(host.current!, {
      readOnly: true,
      originalEditable: false,
      automaticLayout: true,
      renderSideBySide: true,
      minimap: { enabled: false },
      wordWrap: 'on',
      diffWordWrap: 'on',
      scrollBeyondLastLine: false,
      theme: systemTheme(),
      fontSize: 13,
      glyphMargin: true,
      originalAriaLabel: `Source before: ${path}`,
      modifiedAriaLabel: `Source after: ${path}`,
      hideUnchangedRegions: { enabled: true, contextLineCount: CONTEXT, minimumLineCount: MIN_FOLD, revealLineCount: 20 },
    });
    const unname = nameSourceFolds(host.current!);
    const language = languageOf(path);
    const original = monaco.editor.createModel(before ?? '', language);
    const modified = monaco.editor.createModel(after ?? '', language);
    diff.setModel({ original, modified });
    editorRef.current = diff;
    // a deleted file has no new text: its comments go on the old one
    const side = after === null ? diff.getOriginalEditor() : diff.getModifiedEditor();
    decorations.current = side.createDecorationsCollection();
    let revealed = !revealFirstChange;
    const subs = [
      diff.onDidUpdateDiff(() => {
        changes.current = diff.getLineChanges() ?? [];
        counted.current?.(changes.current.length);
        if (revealed) return;
        revealed = true;
        diff.revealFirstDiff();
      }),
      side.onMouseDown((e) => {
        const t = e.target;
        if ((t.type === monaco.editor.MouseTargetType.GUTTER_LINE_NUMBERS || t.type === monaco.editor.MouseTargetType.GUTTER_GLYPH_MARGIN) && t.position) {
          const line = t.position.lineNumber;
          if (e.event.shiftKey && anchorLine.current !== null) pick.current(Math.min(anchorLine.current, line), Math.max(anchorLine.current, line));
          else {
            anchorLine.current = line;
            pick.current(line, line);
          }
        }
      }),
      side.onDidChangeCursorSelection((e) => {
        const s = e.selection;
        if (s.isEmpty()) return;
        // a selection ending at column 1 of a line does not take that line
        const end = s.endColumn === 1 && s.endLineNumber > s.startLineNumber ? s.endLineNumber - 1 : s.endLineNumber;
        pick.current(s.startLineNumber, end);
      }),
    ];
    return () => {
      unname();
      subs.forEach((s) => s.dispose());
      diff.setModel(null);
      original.dispose();
      modified.dispose();
      diff.dispose();
      editorRef.current = null;
    };
  }, [path, before, after, revealFirstChange]);

  useEffect(() => {
    const lines = new Set(commentedLines);
    const items: monaco.editor.IModelDeltaDecoration[] = [...lines].map((line) => ({
      range: new monaco.Range(line, 1, line, 1),
      options: { glyphMarginClassName: 'review-comment-glyph', glyphMarginHoverMessage: { value: 'Comment thread' } },
    }));
    if (target && target.path === path)
      items.push({ range: new monaco.Range(target.lineStart, 1, target.lineEnd, 1), options: { isWholeLine: true, className: 'review-target-line', linesDecorationsClassName: 'review-target-gutter' } });
    decorations.current?.set(items);
  }, [commentedLines, target, path, before, after]);

  useEffect(() => {
    const diff = editorRef.current;
    const change = goTo ? changes.current[goTo.index] : undefined;
    if (!diff || !change) return;
    // a deleted file shows its changes on the old side; a block deleted from the new side is placed at the line before it
    const [side, start] =
      after === null ? [diff.getOriginalEditor(), change.originalStartLineNumber] : [diff.getModifiedEditor(), change.modifiedStartLineNumber];
    const line = Math.max(1, start);
    side.revealLineInCenter(line);
    side.setPosition({ lineNumber: line, column: 1 });
    if (goTo!.focus) side.focus();
  }, [goTo, after]);

  return <div ref={host} className="source-diff" />;
}
