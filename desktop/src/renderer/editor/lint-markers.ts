/**
 * Lint findings in Monaco: markers (squiggles) owned by 'quire-lint', a code action provider that
 * offers each finding's fix as a quick fix (lightbulb, Ctrl/Cmd+.), and "next problem" (F8).
 * The findings of a model are kept with the model version they were computed for: a fix is offered
 * only while the text is still that version (its offsets would be wrong otherwise).
 */
import type { LintFinding } from '@quire/shared/lint/types';
import { monaco } from './monaco-setup';

const OWNER = 'quire-lint';
const byModel = new Map<string, { version: number; findings: LintFinding[] }>();

/** Monaco's severity of a finding: errors red, warnings yellow, suggestions as info. */
function severityOf(f: LintFinding): monaco.MarkerSeverity {
  return f.severity === 'error' ? monaco.MarkerSeverity.Error : f.severity === 'warning' ? monaco.MarkerSeverity.Warning : monaco.MarkerSeverity.Info;
}

/** Shows `findings` (computed for the model's text at `version`) as markers of `model`. */
export function setLintMarkers(model: monaco.editor.ITextModel, version: number, findings: LintFinding[]): void {
  byModel.set(model.uri.toString(), { version, findings });
  monaco.editor.setModelMarkers(
    model,
    OWNER,
    findings.map((f) => ({
      startLineNumber: f.line,
      startColumn: f.column,
      endLineNumber: f.endLine,
      endColumn: Math.max(f.endColumn, f.line === f.endLine ? f.column + 1 : f.endColumn),
      message: f.message,
      source: f.ruleId,
      code: f.ruleId,
      severity: severityOf(f),
    })),
  );
}

/** Forgets a model's findings (when it is disposed). */
export function clearLintMarkers(model: monaco.editor.ITextModel): void {
  byModel.delete(model.uri.toString());
  monaco.editor.setModelMarkers(model, OWNER, []);
}

/** The quick fix title of a finding's fix. */
export function fixTitle(f: LintFinding): string {
  if (!f.fix) return '';
  return f.fix.text === '' ? `Fix: remove (${f.ruleId})` : `Fix: replace with "${f.fix.text.length > 40 ? `${f.fix.text.slice(0, 40)}…` : f.fix.text}" (${f.ruleId})`;
}

let registered = false;

/** Registers the quick-fix provider for Markdown models (once per window). */
export function registerLintCodeActions(): void {
  if (registered) return;
  registered = true;
  monaco.languages.registerCodeActionProvider(
    'markdown',
    {
      provideCodeActions(model, range) {
        const entry = byModel.get(model.uri.toString());
        if (!entry || entry.version !== model.getVersionId()) return { actions: [], dispose() {} };
        const actions: monaco.languages.CodeAction[] = [];
        for (const f of entry.findings) {
          if (!f.fix) continue;
          const where = new monaco.Range(f.line, f.column, f.endLine, f.endColumn);
          if (!monaco.Range.areIntersectingOrTouching(where, range)) continue;
          const start = model.getPositionAt(f.fix.range[0]);
          const end = model.getPositionAt(f.fix.range[1]);
          actions.push({
            title: fixTitle(f),
            kind: 'quickfix',
            isPreferred: true,
            diagnostics: [
              { startLineNumber: f.line, startColumn: f.column, endLineNumber: f.endLine, endColumn: f.endColumn, message: f.message, severity: severityOf(f) },
            ],
            edit: {
              edits: [
                {
                  resource: model.uri,
                  versionId: entry.version,
                  textEdit: { range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column), text: f.fix.text },
                },
              ],
            },
          });
        }
        return { actions, dispose() {} };
      },
    },
    { providedCodeActionKinds: ['quickfix'] },
  );
}

/**
 * Moves the caret to the next lint marker after it (wrapping to the first), selects it and
 * reveals it; does nothing without markers. @returns the marker moved to, or null
 */
export function goToNextProblem(editor: monaco.editor.IStandaloneCodeEditor): monaco.editor.IMarker | null {
  const model = editor.getModel();
  if (!model) return null;
  const markers = monaco.editor
    .getModelMarkers({ resource: model.uri, owner: OWNER })
    .sort((a, b) => a.startLineNumber - b.startLineNumber || a.startColumn - b.startColumn);
  if (markers.length === 0) return null;
  const pos = editor.getPosition() ?? new monaco.Position(1, 1);
  const next =
    markers.find((m) => m.startLineNumber > pos.lineNumber || (m.startLineNumber === pos.lineNumber && m.startColumn > pos.column)) ?? markers[0]!;
  editor.setSelection(new monaco.Range(next.startLineNumber, next.startColumn, next.endLineNumber, next.endColumn));
  editor.revealRangeInCenterIfOutsideViewport(new monaco.Range(next.startLineNumber, next.startColumn, next.endLineNumber, next.endColumn));
  editor.focus();
  return next;
}
