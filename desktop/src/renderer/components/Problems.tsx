import type { LintFinding } from '@quire/shared/lint/types';
import { shortcutLabel, COMMANDS } from '../editor/commands';

/** Props of {@link Problems}. */
export interface ProblemsProps {
  findings: LintFinding[];
  onFix(finding: LintFinding): void;
  /** applies every fixable finding of the page (the shared linter's autoFix, in the core) */
  onFixAll?(): void;
  /** moves the caret to a finding */
  onGoTo?(finding: LintFinding): void;
}

const fixAllShortcut = COMMANDS.find((c) => c.id === 'fix-all')?.shortcut;

/**
 * The Problems panel: a region named "Problems" listing the findings, each with a "Fix" button when a
 * fix exists, and a "Fix all in page" button (disabled when nothing can be fixed).
 */
export function Problems({ findings, onFix, onFixAll, onGoTo }: ProblemsProps) {
  const fixable = findings.filter((f) => f.fix).length;
  return (
    <section role="region" aria-label="Problems" className="problems">
      <div className="problems-head">
        <h2>Problems ({findings.length})</h2>
        {onFixAll && (
          <button type="button" onClick={onFixAll} disabled={fixable === 0} title={fixAllShortcut ? `Fix all in page (${shortcutLabel(fixAllShortcut)})` : undefined}>
            Fix all in page
          </button>
        )}
      </div>
      {findings.length === 0 ? (
        <p className="note">No problems.</p>
      ) : (
        <ul>
          {findings.map((f, i) => (
            <li key={`${f.ruleId}-${f.line}-${f.column}-${i}`} className={`problem problem-${f.severity}`}>
              {onGoTo ? (
                <button type="button" className="where link" aria-label={`Go to line ${f.line}, column ${f.column}`} onClick={() => onGoTo(f)}>
                  {f.line}:{f.column}
                </button>
              ) : (
                <span className="where">
                  {f.line}:{f.column}
                </span>
              )}
              <span className="message">{f.message}</span>
              <span className="rule">{f.ruleId}</span>
              {f.fix && (
                <button type="button" onClick={() => onFix(f)}>
                  Fix
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
