import { DocsError } from '../types';

/** 1-based line and column of a character offset in `text`. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

class SyntaxAt extends Error {
  constructor(readonly offset: number, readonly expected: string) {
    super(expected);
  }
}

/**
 * A small recursive-descent scan of the JSON grammar (RFC 8259) that reports where each value
 * starts (`onValue(path, offset)`) and where the text first goes wrong.
 */
function scanJson(text: string, onValue?: (path: (string | number)[], offset: number) => void): { offset: number; expected: string } | undefined {
  let i = 0;
  const path: (string | number)[] = [];
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (expected: string): never => {
    throw new SyntaxAt(i, expected);
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail('a value (string, number, object, array, true, false or null)');
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('a closing quote');
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c === '\\') {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else fail('a valid escape sequence');
      } else if (c < ' ') fail('no raw control character inside a string (use \\n)');
      else i++;
    }
  };
  const number = () => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail('a value (string, number, object, array, true, false or null)');
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    onValue?.(path, i);
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail('a property name in double quotes');
        const keyStart = i;
        string();
        const key = onValue ? (JSON.parse(text.slice(keyStart, i)) as string) : '';
        ws();
        if (text[i] !== ':') fail('":" after the property name');
        i++;
        path.push(key);
        value();
        path.pop();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail('"," or "}"');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (let index = 0; ; index++) {
        path.push(index);
        value();
        path.pop();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail('"," or "]"');
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    return number();
  };
  try {
    value();
    ws();
    if (i < text.length) fail('the end of the file');
    return undefined;
  } catch (err) {
    if (err instanceof SyntaxAt) return { offset: err.offset, expected: err.expected };
    throw err;
  }
}

/**
 * Finds where JSON text first goes wrong, since `JSON.parse` does not always say (Node 20).
 * @returns the character offset and what was expected there; undefined for valid JSON
 */
export function findJsonSyntaxError(text: string): { offset: number; expected: string } | undefined {
  return scanJson(text);
}

/**
 * Calls `visit` with the JSON path and the character offset of every value of JSON `text`, outermost
 * first, in text order (the path array is reused: copy it to keep it). A leading byte-order mark is
 * skipped; offsets are those of `text` as given.
 * @returns false when the text is not valid JSON (values up to the error were visited)
 */
export function visitJsonValues(text: string, visit: (path: readonly (string | number)[], offset: number) => void): boolean {
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  return scanJson(bom ? text.slice(1) : text, (path, offset) => visit(path, offset + bom)) === undefined;
}

/**
 * The 1-based line and column where the value at `path` starts in JSON `text` (the deepest
 * existing parent when the path does not exist), for error messages; undefined for invalid JSON.
 */
export function locateJsonPath(text: string, path: readonly (string | number)[]): { line: number; column: number } | undefined {
  const body = text.replace(/^\uFEFF/, '');
  let best: { depth: number; offset: number } | undefined;
  const error = scanJson(body, (at, offset) => {
    if (at.length > path.length || (best && best.depth >= at.length)) return;
    if (at.every((seg, k) => seg === path[k])) best = { depth: at.length, offset };
  });
  return error || !best ? undefined : lineColumn(body, best.offset);
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
