/**
 * Output formats of `check` and `lint`: `text` (one line per finding, then a summary), `json`
 * (`{ findings, summary }`) and `github` (GitHub Actions workflow commands, "Workflow commands for
 * GitHub Actions": `::error file=…,line=…,col=…,title=…::message`, properties and data escaped).
 */
import type { Finding } from './findings';

/** The output formats. */
export const FORMATS = ['text', 'json', 'github'] as const;
export type Format = (typeof FORMATS)[number];

/** The report of `findings` in `format`, ending with a newline. */
export function formatReport(findings: readonly Finding[], format: Format, extra: { pages?: number } = {}): string {
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  if (format === 'json') return `${JSON.stringify({ findings, summary: { errors, warnings, ...extra } }, null, 2)}\n`;
  const summary = `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${extra.pages !== undefined ? ` in ${extra.pages} pages` : ''}`;
  if (format === 'github') {
    const lines = findings.map((f) => {
      const props = [
        ...(f.file ? [`file=${escapeProperty(f.file)}`] : []),
        ...(f.line ? [`line=${f.line}`] : []),
        ...(f.column ? [`col=${f.column}`] : []),
        `title=${escapeProperty(f.rule)}`,
      ];
      return `::${f.severity} ${props.join(',')}::${escapeData(f.message)}`;
    });
    return `${[...lines, summary].join('\n')}\n`;
  }
  const lines = findings.map((f) => `${where(f)}  ${f.severity}  ${f.message}  [${f.rule}]`);
  return `${[...lines, summary].join('\n')}\n`;
}

function where(f: Finding): string {
  if (!f.file) return '(project)';
  return `${f.file}${f.line ? `:${f.line}${f.column ? `:${f.column}` : ''}` : ''}`;
}

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
