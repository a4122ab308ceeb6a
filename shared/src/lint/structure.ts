/**
 * Markdown structure checks with markdownlint, on the rules that suit MDX documentation pages:
 * heading order and style, list and emphasis consistency, blank lines, spacing inside emphasis,
 * code and links, empty links, images without alternative text, fenced code without a language,
 * table shape. Left out: line length (prose wraps freely), inline HTML (MDX components are HTML-like),
 * bare URLs (the `<url>` fix is not valid MDX), a first-line H1 (titles come from front matter),
 * link fragments (need the other pages) and `$` prompts. Findings are `markdown/<rule alias>`, e.g.
 * `markdown/heading-increment`; markdownlint's fixes become range replacements.
 */
import { lint } from 'markdownlint/sync';
import { lineStarts } from './text-positions';
import type { LintFinding, LintFix } from './types';

/** markdownlint configuration of the structure checks (rule names as markdownlint documents them). */
export const STRUCTURE_CONFIG = {
  default: true,
  MD013: false,
  MD033: false,
  MD034: false,
  MD041: false,
  MD051: false,
  MD014: false,
  MD010: { code_blocks: false },
  MD024: { siblings_only: true },
} as const;

/** A range of the page, `[from, to)` in UTF-16 offsets, that is not Markdown (an MDX expression, import or export). */
export type OpaqueRange = readonly [from: number, to: number];

/**
 * `text` with every non-white-space character inside `opaque` written as `x` (an expression's braces
 * kept), so that markdownlint, which knows no MDX, reads no emphasis, code or links in
 * `{/* a comment *\/}`; lengths, lines and white space stay, so positions and findings about spacing hold.
 */
function maskOpaque(text: string, opaque: readonly OpaqueRange[]): string {
  if (opaque.length === 0) return text;
  const chars = text.split('');
  for (const [from, to] of opaque) {
    const braces = text[from] === '{' && text[to - 1] === '}';
    for (let i = braces ? from + 1 : from; i < (braces ? to - 1 : to); i++) if (!/\s/.test(chars[i]!)) chars[i] = 'x';
  }
  return chars.join('');
}

/**
 * The findings of the structure rules on `text`, those `enabled` says yes to. `opaque` lists the MDX
 * expressions, imports and exports of the page (page-tree.ts `opaqueRanges`): nothing inside them is
 * reported, and a fix that would touch one is left out.
 */
export function runStructureChecks(text: string, enabled: (ruleId: string) => boolean, opaque: readonly OpaqueRange[] = []): LintFinding[] {
  const results = lint({ strings: { page: maskOpaque(text, opaque) }, config: STRUCTURE_CONFIG, handleRuleFailures: true }).page ?? [];
  const starts = lineStarts(text);
  const findings: LintFinding[] = [];
  const touchesOpaque = (fix: LintFix) => opaque.some(([from, to]) => fix.range[0] < to && fix.range[1] > from);
  for (const r of results) {
    const ruleId = `markdown/${r.ruleNames[1] ?? r.ruleNames[0] ?? 'structure'}`;
    if (!enabled(ruleId)) continue;
    const lineText = text.slice(starts[r.lineNumber - 1] ?? 0, (starts[r.lineNumber] ?? text.length + 1) - 1);
    const [start, length] = r.errorRange ?? [1, lineText.length];
    const column = start ?? 1;
    const endColumn = column + (length ?? 0);
    findings.push({
      ruleId,
      severity: 'warning',
      message: `${r.ruleDescription}${r.errorDetail ? ` (${r.errorDetail})` : ''}.`,
      line: r.lineNumber,
      column,
      endLine: r.lineNumber,
      endColumn: Math.max(endColumn, column + 1),
    });
    const fix = r.fixInfo ? toRangeFix(text, starts, r.lineNumber, r.fixInfo) : undefined;
    if (fix && !touchesOpaque(fix)) findings[findings.length - 1]!.fix = fix;
  }
  return findings;
}

/** markdownlint's fix (line, column, characters to delete, text to insert; -1: delete the line) as a range replacement. */
function toRangeFix(
  text: string,
  starts: number[],
  errorLine: number,
  fix: { lineNumber?: number; editColumn?: number; deleteCount?: number; insertText?: string },
): LintFix {
  const line = fix.lineNumber ?? errorLine;
  const lineStart = starts[line - 1] ?? text.length;
  const lineEnd = (starts[line] ?? text.length + 1) - 1;
  if (fix.deleteCount === -1) return { range: [lineStart, Math.min(text.length, lineEnd + 1)], text: '' };
  const at = lineStart + (fix.editColumn ?? 1) - 1;
  const remove = fix.deleteCount ?? 0;
  return { range: [at, Math.min(lineEnd, at + remove)], text: fix.insertText ?? '' };
}
