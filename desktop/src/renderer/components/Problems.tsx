import type { LintFinding } from '@quire/shared/lint/types';

/** Props of {@link Problems}. */
export interface ProblemsProps {
  findings: LintFinding[];
  onFix(finding: LintFinding): void;
}

/** The Problems panel: a region named "Problems" listing the findings, each with a "Fix" button when a fix exists. */
export function Problems({ findings, onFix }: ProblemsProps) {
  return (
    <section role="region" aria-label="Problems" className="problems">
      <h2>Problems ({findings.length})</h2>
      {findings.length === 0 ? (
        <p className="note">No problems.</p>
      ) : (
        <ul>
          {findings.map((f, i) => (
            <li key={`${f.ruleId}-${f.line}-${f.column}-${i}`} className={`problem problem-${f.severity}`}>
              <span className="where">
                {f.line}:{f.column}
              </span>
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
