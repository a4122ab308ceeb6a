import { findNodeAtLocation, getLocation, parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { DocsError } from '../types';

/** 1-based line and column of a character offset in `text`. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** What the reader of an error message is told was expected, per jsonc-parser error code name. */
const EXPECTED: Record<string, string> = {
  PropertyNameExpected: 'a property name in double quotes',
  ColonExpected: '":" after the property name',
  CloseBraceExpected: '"," or "}"',
  CloseBracketExpected: '"," or "]"',
  UnexpectedEndOfString: 'a closing quote',
  InvalidEscapeCharacter: 'a valid escape sequence',
  InvalidUnicode: 'a valid escape sequence',
  InvalidCharacter: 'no raw control character inside a string (use \\n)',
  InvalidCommentToken: 'no comment (JSON has none)',
  UnexpectedEndOfComment: 'no comment (JSON has none)',
  EndOfFileExpected: 'the end of the file',
};

const VALUE = 'a value (string, number, object, array, true, false or null)';

/**
 * Parses `text` as strict JSON (RFC 8259: no comments, no trailing commas) with jsonc-parser, which
 * keeps every value's offset.
 * @returns the value tree (undefined for empty text) and the first syntax error, if any
 */
function parseStrict(text: string): { root: JsonNode | undefined; error?: { offset: number; expected: string } } {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return { root };
  const code = printParseErrorCode(first.error);
  let expected = EXPECTED[code] ?? VALUE;
  if (code === 'CommaExpected') {
    const path = getLocation(text, first.offset).path;
    expected = typeof path[path.length - 1] === 'number' ? '"," or "]"' : '"," or "}"';
  }
  if (root && first.offset >= root.offset + root.length && code === 'InvalidSymbol') expected = 'the end of the file';
  return { root, error: { offset: first.offset, expected } };
}

/** Calls `visit` for `node` and every value under it, outermost first, with its JSON path. */
function walk(node: JsonNode, path: (string | number)[], visit: (path: readonly (string | number)[], offset: number) => void): void {
  visit(path, node.offset);
  if (node.type === 'object') {
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (!key || !value) continue;
      path.push(key.value as string);
      walk(value, path, visit);
      path.pop();
    }
  } else if (node.type === 'array') {
    (node.children ?? []).forEach((child, index) => {
      path.push(index);
      walk(child, path, visit);
      path.pop();
    });
  }
}

/**
 * Finds where JSON text first goes wrong, since `JSON.parse` does not always say (Node 20).
 * @returns the character offset and what was expected there; undefined for valid JSON
 */
export function findJsonSyntaxError(text: string): { offset: number; expected: string } | undefined {
  return parseStrict(text).error;
}

/**
 * Calls `visit` with the JSON path and the character offset of every value of JSON `text`, outermost
 * first, in text order (the path array is reused: copy it to keep it). A leading byte-order mark is
 * skipped; offsets are those of `text` as given.
 * @returns false when the text is not valid JSON (values up to the error were visited)
 */
export function visitJsonValues(text: string, visit: (path: readonly (string | number)[], offset: number) => void): boolean {
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const { root, error } = parseStrict(bom ? text.slice(1) : text);
  if (error || !root) return false;
  walk(root, [], (path, offset) => visit(path, offset + bom));
  return true;
}

/**
 * The 1-based line and column where the value at `path` starts in JSON `text` (the deepest
 * existing parent when the path does not exist), for error messages; undefined for invalid JSON.
 */
export function locateJsonPath(text: string, path: readonly (string | number)[]): { line: number; column: number } | undefined {
  const body = text.replace(/^\uFEFF/, '');
  const { root, error } = parseStrict(body);
  if (error || !root) return undefined;
  for (let depth = path.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(root, path.slice(0, depth) as (string | number)[]);
    if (node) return lineColumn(body, node.offset);
  }
  return undefined;
}

/**
 * Parses a JSON config file (docs.json, mint.json or a `$ref` file). A byte-order mark is allowed.
 * @throws DocsError naming the file, the line and column and what was expected there, when the
 *   text is not valid JSON (the message never quotes the file's content)
 */
export function parseJsonFile(text: string, file: string): unknown {
  const body = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(body);
  } catch {
    if (body.trim() === '') throw new DocsError(`${file}: not valid JSON: the file is empty`, file, 1, 1);
    const found = findJsonSyntaxError(body) ?? { offset: 0, expected: 'valid JSON' };
    const at = lineColumn(body, found.offset);
    throw new DocsError(`${file}: not valid JSON at line ${at.line}, column ${at.column}: expected ${found.expected}`, file, at.line, at.column);
  }
}
