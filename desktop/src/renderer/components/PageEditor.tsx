import { useCallback, useEffect, useRef, useState } from 'react';
import type { LintFinding } from '@quire/shared/lint/types';
import { CodeEditor } from '../editor/CodeEditor';
import { monaco } from '../editor/monaco-setup';
import { SaveQueue } from '../editor/save-queue';
import { core, errorMessage } from '../trpc';
import { Preview } from './Preview';
import { Problems } from './Problems';

/** Pause after typing before the preview and lint run, in ms. */
const PREVIEW_DELAY_MS = 120;
const LINT_DELAY_MS = 250;

const darkScheme = () => window.matchMedia('(prefers-color-scheme: dark)').matches;

/**
 * One open file: Monaco, the live preview and the Problems panel. Every change is saved to the
 * core at once (SaveQueue); previews and lint run after a short pause, each request numbered so
 * that a late answer to an older text is dropped; the last good render stays when a page does not parse.
 */
export function PageEditor({ projectId, path }: { projectId: string; path: string }) {
  const [initial, setInitial] = useState<{ path: string; text: string } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ html: string; error: string | null }>({ html: '', error: null });
  const [findings, setFindings] = useState<LintFinding[]>([]);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const seq = useRef({ preview: 0, lint: 0 });
  const timers = useRef<{ preview?: number; lint?: number }>({});
  const isPage = /\.mdx?$/i.test(path);

  const queue = useRef<SaveQueue | null>(null);
  if (!queue.current) queue.current = new SaveQueue(async () => undefined, () => undefined);

  const runPreview = useCallback(
    (text: string) => {
      const id = ++seq.current.preview;
      core.preview.render.mutate({ projectId, path, text, theme: darkScheme() ? 'dark' : 'light' }).then(
        (r) => {
          if (id !== seq.current.preview) return; // a newer text was sent meanwhile
          setPreview((old) => (r.ok ? { html: r.html, error: null } : { html: old.html, error: `${r.message}${r.line ? ` (line ${r.line})` : ''}` }));
        },
        (err: unknown) => id === seq.current.preview && setPreview((old) => ({ html: old.html, error: errorMessage(err) })),
      );
    },
    [projectId, path],
  );

  const runLint = useCallback(
    (text: string) => {
      const id = ++seq.current.lint;
      core.lint.run.query({ projectId, path, text }).then(
        (r) => {
          if (id !== seq.current.lint) return;
          setFindings(r);
          const model = editor.current?.getModel();
          if (model)
            monaco.editor.setModelMarkers(
              model,
              'quire-lint',
              r.map((f) => ({
                startLineNumber: f.line,
                startColumn: f.column,
                endLineNumber: f.endLine,
                endColumn: f.endColumn,
                message: `${f.message} (${f.ruleId})`,
                severity: f.severity === 'error' ? monaco.MarkerSeverity.Error : f.severity === 'warning' ? monaco.MarkerSeverity.Warning : monaco.MarkerSeverity.Info,
              })),
            );
        },
        () => undefined,
      );
    },
    [projectId, path],
  );

  const schedule = useCallback(
    (text: string) => {
      if (!isPage) return;
      window.clearTimeout(timers.current.preview);
      window.clearTimeout(timers.current.lint);
      timers.current.preview = window.setTimeout(() => runPreview(text), PREVIEW_DELAY_MS);
      timers.current.lint = window.setTimeout(() => runLint(text), LINT_DELAY_MS);
    },
    [isPage, runPreview, runLint],
  );

  useEffect(() => {
    let cancelled = false;
    setInitial(null);
    setFindings([]);
    setPreview({ html: '', error: null });
    queue.current = new SaveQueue(
      async (content) => {
        await core.files.write.mutate({ projectId, path, content });
      },
      (err) => setLoadError(`Your edit could not be saved: ${errorMessage(err)}`),
    );
    core.files.read.query({ projectId, path }).then(
      (f) => {
        if (cancelled) return;
        const text = f.content ?? '';
        setInitial({ path, text });
        if (/\.mdx?$/i.test(path)) {
          runPreview(text);
          runLint(text);
        }
      },
      (err: unknown) => !cancelled && setLoadError(errorMessage(err)),
    );
    return () => {
      cancelled = true;
      window.clearTimeout(timers.current.preview);
      window.clearTimeout(timers.current.lint);
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

  if (loadError && !initial) return <p role="alert">{loadError}</p>;
  if (!initial) return <p className="note">Opening {path}...</p>;
  return (
    <div className={`page-editor${isPage ? '' : ' no-preview'}`}>
      <div className="editor-column">
        <div className="breadcrumb" aria-label="File">
          {path}
        </div>
        {loadError && <p role="alert">{loadError}</p>}
        <CodeEditor path={initial.path} initialText={initial.text} onChange={onChange} onReady={(e) => (editor.current = e)} />
        {isPage && <Problems findings={findings} onFix={(f) => void onFix(f)} />}
      </div>
      {isPage && <Preview html={preview.html} error={preview.error} />}
    </div>
  );
}
