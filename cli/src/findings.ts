/**
 * What the CLI reports: findings of the build's checks (BuildWarning kinds) and of the linter
 * (LintFinding rule ids), with a file relative to the working folder, and an exit status.
 */
import type { BuildWarning } from '@quire/shared/docs/types';
import type { LinterSettings, LintFinding } from '@quire/shared/lint/types';

/** One problem; `file` is relative to the working folder, POSIX; lines and columns 1-based. */
export interface Finding {
  file?: string;
  line?: number;
  column?: number;
  severity: 'error' | 'warning';
  /** a build check's kind (`broken-link`) or a lint rule id (`style/no-simply`) */
  rule: string;
  message: string;
}

/**
 * Build check kinds that fail `check` by default, and the lint rule the project's linter settings
 * use for the same check (a rule turned off or given another severity there applies here too).
 */
const CHECK_RULES: Record<string, { severity: 'error' | 'warning'; ruleId?: string }> = {
  'broken-link': { severity: 'error', ruleId: 'links/broken' },
  'missing-image': { severity: 'error', ruleId: 'images/missing' },
  'unknown-component': { severity: 'warning', ruleId: 'components/unknown' },
  'broken-anchor': { severity: 'error' },
  'broken-redirect': { severity: 'error' },
  'broken-external-link': { severity: 'error' },
  'missing-page': { severity: 'error' },
  'render-failed': { severity: 'error' },
};

/** Lint rules whose findings `check` takes from the build's checks instead (the same verdicts, reported once). */
export const RULES_CHECKED_BY_BUILD = ['links/broken', 'images/missing', 'components/unknown'];

const MESSAGES: Record<string, string> = {
  'broken-link': 'Broken link: %s points to no page, file or redirect of the site',
  'missing-image': 'Missing image: %s is not a file of the site',
  'broken-anchor': 'Broken anchor: %s names no heading or element of that page',
};

/**
 * A build warning as a finding (file made relative by `fileOf`), or undefined when the linter
 * settings turn its rule off. Severity: the settings' for its rule, else {@link CHECK_RULES}, else warning.
 */
export function findingOfWarning(w: BuildWarning, fileOf: (file: string) => string, settings?: LinterSettings): Finding | undefined {
  const known = CHECK_RULES[w.kind];
  const setting = known?.ruleId ? settings?.rules[known.ruleId] : undefined;
  if (setting?.enabled === false) return undefined;
  const severity = setting?.severity ? (setting.severity === 'error' ? 'error' : 'warning') : (known?.severity ?? 'warning');
  const template = MESSAGES[w.kind];
  return {
    ...(w.file ? { file: fileOf(w.file) } : {}),
    ...(w.line ? { line: w.line } : {}),
    severity,
    rule: w.kind,
    message: template ? template.replace('%s', w.message) : w.message,
  };
}

/** A lint finding as a finding; `suggestion` counts as a warning. */
export function findingOfLint(f: LintFinding, file: string): Finding {
  return { file, line: f.line, column: f.column, severity: f.severity === 'error' ? 'error' : 'warning', rule: f.ruleId, message: f.message };
}

/** Exit status: 1 when any error, or more warnings than `maxWarnings`; else 0. */
export function exitStatus(findings: readonly Finding[], maxWarnings?: number): 0 | 1 {
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  return errors > 0 || (maxWarnings !== undefined && warnings > maxWarnings) ? 1 : 0;
}

/** Findings ordered by file, line and column; the same finding twice kept once. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const f of findings) {
    const key = JSON.stringify([f.file, f.line, f.column, f.rule, f.message]);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(f);
    }
  }
  return out.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}
