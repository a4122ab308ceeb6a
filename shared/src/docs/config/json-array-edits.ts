/**
 * Inserting and removing one element of a JSON array in the file's text, touching nothing else:
 * the array keeps its layout (one element per line, or all on one line), comments stay where they
 * are, the element's own same-line comment leaves with it. jsonc-parser's `modify` re-formats the
 * whole array instead (and can move code behind a line comment), hence these. Node-free.
 */
import { createScanner, type Node as JsonNode } from 'jsonc-parser';

/** jsonc-parser's `SyntaxKind` values (a const enum its typings do not let modules read). */
const SyntaxKind = { CommaToken: 5, LineCommentTrivia: 12, BlockCommentTrivia: 13, LineBreakTrivia: 14, Trivia: 15, EOF: 17 } as const;

/** One text replacement: `length` characters at `offset` become `content`. */
export interface TextEdit {
  offset: number;
  length: number;
  content: string;
}

/** Applies non-overlapping edits to `text`; insertions at the same offset land in the order given. */
export function applyTextEdits(text: string, edits: TextEdit[]): string {
  let out = text;
  const order = edits.map((e, i) => ({ e, i })).sort((a, b) => b.e.offset - a.e.offset || b.i - a.i);
  for (const { e } of order) out = out.slice(0, e.offset) + e.content + out.slice(e.offset + e.length);
  return out;
}

const end = (n: { offset: number; length: number }) => n.offset + n.length;
const lineStart = (text: string, offset: number) => text.lastIndexOf('\n', offset - 1) + 1;
const indentAt = (text: string, offset: number) => /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];
/** True when only spaces or tabs come before `offset` on its line. */
const firstOnLine = (text: string, offset: number) => /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset));

/** The tokens after `offset` up to the next line end (comments included), with their offsets. */
function tokensToLineEnd(text: string, offset: number): Array<{ kind: number; offset: number; length: number }> {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  const out: Array<{ kind: number; offset: number; length: number }> = [];
  for (let kind: number = scanner.scan(); kind !== SyntaxKind.EOF && kind !== SyntaxKind.LineBreakTrivia; kind = scanner.scan()) {
    if (kind !== SyntaxKind.Trivia) out.push({ kind, offset: scanner.getTokenOffset(), length: scanner.getTokenLength() });
  }
  return out;
}

/** The offset of the `,` following `offset` (comments and line breaks skipped), or -1 when the next token is not a comma. */
function commaAfter(text: string, offset: number): number {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  for (let kind: number = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    const skipped = [SyntaxKind.Trivia, SyntaxKind.LineBreakTrivia, SyntaxKind.LineCommentTrivia, SyntaxKind.BlockCommentTrivia] as number[];
    if (skipped.includes(kind)) continue;
    return kind === SyntaxKind.CommaToken ? scanner.getTokenOffset() : -1;
  }
  return -1;
}

/** True when the array's elements sit on lines of their own (or it spans lines while empty). */
function multiline(text: string, arr: JsonNode): boolean {
  const items = arr.children ?? [];
  if (items.length === 0) return text.slice(arr.offset, end(arr)).includes('\n');
  return items.every((c) => firstOnLine(text, c.offset));
}

/** `json` (one value's text) with its lines after the first indented by `indent`. */
const indentLines = (json: string, indent: string) => json.replace(/\n/g, `\n${indent}`);

/**
 * The edits inserting `json` (a value's text; later lines indented relative to its first) as
 * element `index` of `arr` (0 to length), in the array's own layout. `unit` is one indentation step.
 */
export function insertElementEdits(text: string, arr: JsonNode, index: number, json: string, unit: string): TextEdit[] {
  const items = arr.children ?? [];
  if (items.length === 0) {
    if (!multiline(text, arr)) return [{ offset: arr.offset, length: arr.length, content: `[${json}]` }];
    const indent = indentAt(text, arr.offset);
    return [{ offset: arr.offset, length: arr.length, content: `[\n${indent}${unit}${indentLines(json, indent + unit)}\n${indent}]` }];
  }
  if (!multiline(text, arr)) {
    const flat = json.replace(/\n\s*/g, ' ');
    if (index < items.length) return [{ offset: items[index]!.offset, length: 0, content: `${flat}, ` }];
    return [{ offset: end(items[items.length - 1]!), length: 0, content: `, ${flat}` }];
  }
  if (index < items.length) {
    const at = items[index]!;
    const indent = indentAt(text, at.offset);
    return [{ offset: lineStart(text, at.offset), length: 0, content: `${indent}${indentLines(json, indent)},\n` }];
  }
  const last = items[items.length - 1]!;
  const indent = indentAt(text, last.offset);
  const comma = commaAfter(text, end(last));
  if (comma >= 0) {
    // a trailing comma stays trailing: the new element goes after it, with its own
    const after = tokensToLineEnd(text, comma + 1).filter((t) => t.kind === SyntaxKind.LineCommentTrivia || t.kind === SyntaxKind.BlockCommentTrivia);
    const at = after.length ? end(after[after.length - 1]!) : comma + 1;
    return [{ offset: at, length: 0, content: `\n${indent}${indentLines(json, indent)},` }];
  }
  // after the last element's same-line comment, so the comment stays with its element
  const rest = tokensToLineEnd(text, end(last));
  const comments = [];
  for (const t of rest) {
    if (t.kind !== SyntaxKind.LineCommentTrivia && t.kind !== SyntaxKind.BlockCommentTrivia) break;
    comments.push(t);
  }
  const at = comments.length ? end(comments[comments.length - 1]!) : end(last);
  return [
    { offset: end(last), length: 0, content: ',' },
    { offset: at, length: 0, content: `\n${indent}${indentLines(json, indent)}` },
  ];
}

/**
 * The edits removing element `index` of `arr`: in a one-per-line array its whole line(s) with its
 * comma and same-line comment (the comma of the element before when it was the last); in a
 * one-line array the element and one comma.
 */
export function removeElementEdits(text: string, arr: JsonNode, index: number): TextEdit[] {
  const items = arr.children ?? [];
  const el = items[index]!;
  const prev = items[index - 1];
  const next = items[index + 1];
  if (multiline(text, arr)) {
    const startOfLine = lineStart(text, el.offset);
    const rest = tokensToLineEnd(text, end(el));
    // the element's line(s) go when only its comma and comments follow it on its last line
    if (rest.every((t) => t.kind === SyntaxKind.CommaToken || t.kind === SyntaxKind.LineCommentTrivia || t.kind === SyntaxKind.BlockCommentTrivia)) {
      const nl = text.indexOf('\n', end(el));
      const stop = nl < 0 ? text.length : nl + 1;
      const edits: TextEdit[] = [{ offset: startOfLine, length: stop - startOfLine, content: '' }];
      if (!next && prev) {
        const comma = commaAfter(text, end(prev));
        if (comma >= 0 && !rest.some((t) => t.kind === SyntaxKind.CommaToken)) edits.push({ offset: comma, length: 1, content: '' });
      }
      return edits;
    }
  }
  if (next) return [{ offset: el.offset, length: next.offset - el.offset, content: '' }];
  if (prev) return [{ offset: end(prev), length: end(el) - end(prev), content: '' }];
  return [{ offset: el.offset, length: el.length, content: '' }];
}
