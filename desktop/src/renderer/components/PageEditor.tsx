import { useCallback, useEffect, useRef, useState } from 'react';
import type { LintFinding } from '@quire/shared/lint/types';
import { CodeEditor } from '../editor/CodeEditor';
import { goToNextProblem, setLintMarkers } from '../editor/lint-markers';
import { monaco } from '../editor/monaco-setup';
import { SaveQueue } from '../editor/save-queue';
import { readingMinutes, wordCount } from '../editor/text-stats';
import { addImageFiles, announceAddedImages, insertMarkdown } from '../editor/image-insert';
import { useUi, WORDS_PER_MINUTE } from '../store/ui-slice';
import { useChanges } from '../store/changes-slice';
import { useReveal } from '../store/reveal-slice';
import { core, errorMessage } from '../trpc';
import { Preview } from './Preview';
import { Problems } from './Problems';
import { ModeSwitch } from '../visual/ModeSwitch';
import { useEditorMode } from '../visual/mode-store';
import { VisualEditor } from '../visual/VisualEditor';
import '../editor/editor.css';
import { ImageFileInput } from '../editor/ImageFileInput';

/** Pause after typing before the preview and lint run, in ms. */
const PREVIEW_DELAY_MS = 80;
const LINT_DELAY_MS = 250;
/** A render that takes longer than this shows the "Rendering..." bar (desktop-look.md), in ms. */
const RENDERING_BAR_MS = 300;

/** The site's configuration file, wherever the docs root is. */
const SITE_CONFIG = /(^|\/)(docs|mint)\.json$/;

/** The frontmatter block of a page ('' without one): a change to it may change the page's title in the tree. */
const frontmatterOf = (text: string) => /^---\r?\n[\s\S]*?\r?\n---/.exec(text)?.[0] ?? '';

const darkScheme = () => window.matchMedia('(prefers-color-scheme: dark)').matches;

/**
 * One open file: Monaco, the live preview and the Problems panel. Every change is saved to the
 * core at once (SaveQueue); previews and lint run after a short pause, each request numbered so
 * that a late answer to an older text is dropped; the last good render stays when a page does not
 * parse. Lint findings are Monaco markers with quick fixes (lint-markers.ts); the open page's
 * actions (save, next problem, fix all, insert image) are offered to the command palette through the UI store.
 * A page takes images pasted, dropped, or chosen with its "Insert image" button (image-insert.ts).
 */
export function PageEditor({ projectId, path }: { projectId: string; path: string }) {
  const [initial, setInitial] = useState<{ path: string; text: string } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ html: string; error: string | null }>({ html: '', error: null });
  const [rendering, setRendering] = useState(false);
  const [topLine, setTopLine] = useState(1);
  const [findings, setFindings] = useState<LintFinding[]>([]);
  const previewVisible = useUi((s) => s.previewVisible);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const [model, setModel] = useState<monaco.editor.ITextModel | null>(null);
  const chooser = useRef<HTMLInputElement>(null);
  const [imageProblem, setImageProblem] = useState<string | null>(null);
  const seq = useRef({ preview: 0, lint: 0 });
  const timers = useRef<{ preview?: number; lint?: number; bar?: number }>({});
  const isPage = /\.mdx?$/i.test(path);
  /** pages, and the site's configuration (its navigation entries are checked against the pages) */
  const isLinted = isPage || SITE_CONFIG.test(path);
  const visual = useEditorMode((s) => s.mode) === 'visual' && isPage;

  const queue = useRef<SaveQueue | null>(null);
  if (!queue.current) queue.current = new SaveQueue(async () => undefined, () => undefined);

  const runPreview = useCallback(
    (text: string) => {
      const id = ++seq.current.preview;
      window.clearTimeout(timers.current.bar);
      timers.current.bar = window.setTimeout(() => id === seq.current.preview && setRendering(true), RENDERING_BAR_MS);
      const done = () => {
        window.clearTimeout(timers.current.bar);
        setRendering(false);
      };
      core.preview.render.mutate({ projectId, path, text, theme: darkScheme() ? 'dark' : 'light' }).then(
        (r) => {
          if (id !== seq.current.preview) return; // a newer text was sent meanwhile
          done();
          setPreview((old) => (r.ok ? { html: r.html, error: null } : { html: old.html, error: `${r.message}${r.line ? ` (line ${r.line})` : ''}` }));
        },
        (err: unknown) => {
          if (id !== seq.current.preview) return;
          done();
          setPreview((old) => ({ html: old.html, error: errorMessage(err) }));
        },
      );
    },
    [projectId, path],
  );

  const runLint = useCallback(
    (text: string) => {
      const id = ++seq.current.lint;
      const version = editor.current?.getModel()?.getVersionId();
      const words = wordCount(text);
      useUi.getState().setStatus({ words, readingMinutes: readingMinutes(words, WORDS_PER_MINUTE) });
      core.lint.run.query({ projectId, path, text }).then(
        (r) => {
          if (id !== seq.current.lint) return;
          setFindings(r);
          useUi.getState().setStatus({
            errors: r.filter((f) => f.severity === 'error').length,
            warnings: r.filter((f) => f.severity === 'warning').length,
            suggestions: r.filter((f) => f.severity === 'suggestion').length,
          });
          const model = editor.current?.getModel();
          // markers and quick fixes only for the text they were computed for (a newer lint is on its way)
          if (model && (version === undefined || model.getVersionId() === version)) setLintMarkers(model, model.getVersionId(), r);
        },
        () => undefined,
      );
    },
    [projectId, path],
  );

  const schedule = useCallback(
    (text: string) => {
      window.clearTimeout(timers.current.preview);
      window.clearTimeout(timers.current.lint);
      if (isPage) timers.current.preview = window.setTimeout(() => runPreview(text), PREVIEW_DELAY_MS);
      if (isLinted) timers.current.lint = window.setTimeout(() => runLint(text), LINT_DELAY_MS);
    },
    [isPage, isLinted, runPreview, runLint],
  );

  useEffect(() => {
    let cancelled = false;
    setInitial(null);
    setFindings([]);
    setPreview({ html: '', error: null });
    useUi.getState().setStatus({ line: 1, column: 1, words: 0, readingMinutes: 0, errors: 0, warnings: 0, suggestions: 0 });
    let saved: string | undefined;
    queue.current = new SaveQueue(
      async (content) => {
        await core.files.write.mutate({ projectId, path, content });
        useChanges.getState().refreshSoon(projectId);
        // the tree shows docs.json's navigation and the pages' titles: it follows their edits as you type
        const titlesChanged = /\.mdx?$/i.test(path) && saved !== undefined && frontmatterOf(saved) !== frontmatterOf(content);
        if (SITE_CONFIG.test(path) || titlesChanged) useUi.getState().treeChanged();
        saved = content;
      },
      (err) => setLoadError(`Your edit could not be saved: ${errorMessage(err)}`),
    );
    core.files.read.query({ projectId, path }).then(
      (f) => {
        if (cancelled) return;
        const text = f.content ?? '';
        saved = text;
        setInitial({ path, text });
        if (/\.mdx?$/i.test(path)) runPreview(text);
        // after Monaco has the model, so that markers land on it
        if (/\.mdx?$/i.test(path) || SITE_CONFIG.test(path)) window.setTimeout(() => runLint(text), 0);
      },
      (err: unknown) => !cancelled && setLoadError(errorMessage(err)),
    );
    return () => {
      cancelled = true;
      window.clearTimeout(timers.current.preview);
      window.clearTimeout(timers.current.lint);
      window.clearTimeout(timers.current.bar);
    };
  }, [projectId, path, runPreview, runLint]);

  const onChange = useCallback(
    (text: string) => {
      queue.current!.push(text);
      schedule(text);
    },
    [schedule],
  );

  /** Applies a finding's fix through the core, then puts the same edit in the editor (kept in its undo history). */
  const onFix = useCallback(
    async (finding: LintFinding) => {
      if (!finding.fix) return;
      await queue.current!.flush();
      try {
        const file = await core.lint.applyFix.mutate({ projectId, path, fix: finding.fix });
        const ed = editor.current;
        const model = ed?.getModel();
        if (ed && model) {
          const [from, to] = finding.fix.range;
          const start = model.getPositionAt(from);
          const end = model.getPositionAt(to);
          ed.executeEdits('quire-fix', [{ range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column), text: finding.fix.text }]);
          if (model.getValue() !== file.content) model.setValue(file.content ?? '');
        }
      } catch (err) {
        setLoadError(errorMessage(err));
      }
    },
    [projectId, path],
  );

  /** "Fix all in page": the core applies every fix (the shared linter's autoFix) and saves; the editor gets the result as one undoable edit. */
  const onFixAll = useCallback(async () => {
    const ed = editor.current;
    const model = ed?.getModel();
    if (!ed || !model) return;
    await queue.current!.flush();
    try {
      const { file, edits } = await core.editor.fixAll.mutate({ projectId, path, text: model.getValue() });
      const text = file.content ?? '';
      if (model.getValue() !== text) {
        ed.pushUndoStop();
        ed.executeEdits('quire-fix-all', [{ range: model.getFullModelRange(), text }]);
        ed.pushUndoStop();
      }
      useUi.getState().setNotice(edits.length === 0 ? 'Nothing to fix.' : `${edits.length} ${edits.length === 1 ? 'fix' : 'fixes'} applied.`);
      runLint(text);
      runPreview(text);
    } catch (err) {
      setLoadError(errorMessage(err));
    }
  }, [projectId, path, runLint, runPreview]);

  /** Adds image files to the project and inserts their Markdown at `at` (a drop) or the caret; says why any was refused. */
  const onFiles = useCallback(
    async (files: File[], at: monaco.IPosition | null) => {
      setImageProblem(null);
      const added = await addImageFiles(projectId, files);
      if (editor.current) insertMarkdown(editor.current, added.markdown, at ?? undefined);
      setImageProblem(added.problems.length ? added.problems.join(' ') : null);
      announceAddedImages(projectId, added.markdown.length);
    },
    [projectId],
  );

  const onGoTo = useCallback((f: LintFinding) => {
    const ed = editor.current;
    if (!ed) return;
    ed.setSelection(new monaco.Range(f.line, f.column, f.endLine, f.endColumn));
    ed.revealRangeInCenterIfOutsideViewport(new monaco.Range(f.line, f.column, f.endLine, f.endColumn));
    ed.focus();
  }, []);

  // the open page's actions, for the command palette and the shortcuts
  useEffect(() => {
    useUi.getState().setEditor({
      save: async () => {
        await queue.current!.flush();
        useUi.getState().setNotice(`Saved ${path}.`);
      },
      nextProblem: () => {
        if (editor.current && !goToNextProblem(editor.current)) useUi.getState().setNotice('No problems in this page.');
      },
      fixAll: onFixAll,
      insertImage: () => (isPage ? chooser.current?.click() : useUi.getState().setNotice('Images go into pages: open a page first.')),
    });
    return () => {
      useUi.getState().setEditor(null);
      useUi.getState().setStatus(null);
    };
  }, [path, onFixAll, isPage]);

  // a search result asked for a place in this file: the caret goes there once the model holds the file
  const reveal = useReveal((s) => s.request);
  useEffect(() => {
    const ed = editor.current;
    if (!reveal || reveal.path !== path || initial?.path !== path || !ed) return;
    ed.setPosition({ lineNumber: reveal.line, column: reveal.column });
    ed.revealLineInCenter(reveal.line);
    ed.focus();
    useReveal.getState().done(reveal.seq);
  }, [reveal, path, initial]);

  /** "Open in MDX" from a read-only block of the visual mode: MDX mode, the caret at the block. */
  const openInMdx = useCallback((offset: number) => {
    useEditorMode.getState().setMode('mdx');
    window.setTimeout(() => {
      const ed = editor.current;
      const at = ed?.getModel()?.getPositionAt(offset);
      if (!ed || !at) return;
      ed.layout();
      ed.setPosition(at);
      ed.revealLineInCenter(at.lineNumber);
      ed.focus();
    }, 0);
  }, []);

  const onReady = useCallback((e: monaco.editor.IStandaloneCodeEditor | null) => {
    editor.current = e;
    setModel(e?.getModel() ?? null);
    e?.onDidChangeModel(() => setModel(e.getModel()));
  }, []);

  const onCursor = useCallback((line: number, column: number) => useUi.getState().setStatus({ line, column }), []);

  if (loadError && !initial) return <p role="alert">{loadError}</p>;
  if (!initial) return <p className="note">Opening {path}...</p>;
  const showPreview = isPage && previewVisible;
  return (
    <div className={`page-editor${showPreview ? '' : ' no-preview'}`}>
      <div className={`editor-column${visual ? ' visual-mode' : ''}`}>
        <div className="editor-head">
          <div className="breadcrumb" aria-label="File">
            {path}
          </div>
          {isPage && <ModeSwitch />}
          {isPage && (
            <div role="toolbar" aria-label="Page tools" className="editor-tools">
              <button type="button" onClick={() => chooser.current?.click()} title="Add an image file to the project and show it here (or paste or drop one)">
                Insert image
              </button>
              <ImageFileInput inputRef={chooser} label="Image file" onFiles={(files) => void onFiles(files, null)} />
            </div>
          )}
        </div>
        {loadError && <p role="alert">{loadError}</p>}
        {imageProblem && (
          <p role="alert" className="image-problem">
            {imageProblem}
          </p>
        )}
        <CodeEditor
          path={initial.path}
          initialText={initial.text}
          onChange={onChange}
          onReady={onReady}
          onCursor={onCursor}
          onTopLine={setTopLine}
          onFiles={isPage ? (files, at) => void onFiles(files, at) : undefined}
        />
        {visual && model && <VisualEditor model={model} path={path} findings={findings} onFix={(f) => void onFix(f)} onOpenInMdx={openInMdx} />}
        {isLinted && <Problems findings={findings} onFix={(f) => void onFix(f)} onFixAll={isPage ? () => void onFixAll() : undefined} onGoTo={onGoTo} />}
      </div>
      {showPreview && <Preview html={preview.html} error={preview.error} rendering={rendering} topLine={topLine} />}
    </div>
  );
}
