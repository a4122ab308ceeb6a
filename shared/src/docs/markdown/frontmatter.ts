/**
 * YAML frontmatter of `.md` and `.mdx` pages (decisions.md section 5; MINTLIFY-FORMAT.md section 4):
 * unknown keys are kept; a block that is not valid YAML fails the build with its line.
 */
import { parseDocument } from 'yaml';
import { DocsError } from '../types';
import type { TextEdit } from './text-edits';
export { titleFromPath } from '../config/title-from-path';

/** A page split into its frontmatter and body. */
export interface SplitPage {
  /** the parsed YAML mapping ({} when there is no frontmatter or it is not a mapping) */
  data: Record<string, unknown>;
  /**
   * the body with the frontmatter lines blanked out, so that parser line numbers still match the file
   * (what the engines parse)
   */
  body: string;
  /** the body without the frontmatter lines (for the page's Markdown export) */
  content: string;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;

/**
 * Real pages (agentops) continue a quoted top-level value on unindented lines, which js-yaml (what Mintlify
 * reads frontmatter with) accepts and YAML 1.2 does not:
 * `description: 'first line` / `Ex: second line'`. Indents such continuation lines so the value parses.
 */
function indentQuotedContinuations(yamlText: string): string {
  let open: string | undefined;
  return yamlText
    .split('\n')
    .map((line) => {
      if (open) {
        const closes = open === "'" ? line.replace(/''/g, '').includes("'") : line.replace(/\\./g, '').includes('"');
        if (closes) open = undefined;
        return `  ${line}`;
      }
      const m = /^[\w.-]+:\s+(['"])(.*)$/.exec(line);
      if (m) {
        const q = m[1]!;
        const rest = q === "'" ? m[2]!.replace(/''/g, '') : m[2]!.replace(/\\./g, '');
        if (!rest.includes(q)) open = q;
      }
      return line;
    })
    .join('\n');
}

/**
 * Splits `source` into frontmatter and body.
 * @throws DocsError(filePath, line, column) when the frontmatter is not valid YAML or is never closed
 */
export function splitFrontmatter(source: string, filePath: string): SplitPage {
  const open = OPEN.exec(source);
  if (!open) return { data: {}, body: source.replace(/^\uFEFF/, ''), content: source.replace(/^\uFEFF/, '') };
  const close = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;
  const rest = source.slice(open[0].length);
  const end = close.exec(rest);
  if (!end) throw new DocsError(`${filePath}:1: frontmatter starts with --- but is never closed by a --- line`, filePath, 1, 1);
  const yamlText = rest.slice(0, end.index);
  const after = rest.slice(end.index + end[0].length);
  let doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const repaired = parseDocument(indentQuotedContinuations(yamlText), { prettyErrors: false, uniqueKeys: false });
    if (repaired.errors.length === 0) doc = repaired;
  }
  if (doc.errors.length > 0) {
    const err = doc.errors[0]!;
    const line = (err.linePos?.[0]?.line ?? 1) + 1;
    const column = err.linePos?.[0]?.col ?? 1;
    const reason = err.message.split('\n')[0];
    throw new DocsError(`${filePath}:${line}:${column}: invalid YAML frontmatter: ${reason}`, filePath, line, column);
  }
  const value: unknown = doc.toJS();
  const data = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const fmLines = (open[0] + yamlText + end[0]).split('\n').length - 1;
  return { data, body: '\n'.repeat(fmLines) + after, content: after.replace(/^\s*\n/, '') };
}

/**
 * Replaces `{{name}}` with the config's `variables` (SiteConfig.variables) where `name` is defined;
 * unknown names are left as written.
 * @param edits when given, receives every replacement (text-edits.ts), in `text`'s coordinates
 */
export function substituteVariables(text: string, variables: Record<string, string> | undefined, edits?: TextEdit[]): string {
  if (!variables || !text.includes('{{')) return text;
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (m, name: string, offset: number) => {
    if (!Object.hasOwn(variables, name)) return m;
    edits?.push({ from: offset, to: offset + m.length, text: variables[name]! });
    return variables[name]!;
  });
}
