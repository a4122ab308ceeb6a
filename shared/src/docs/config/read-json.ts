import { DocsError } from '../types';

/** 1-based line and column of a character offset in `text`. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * Parses a JSON config file (docs.json, mint.json or a `$ref` file). A byte-order mark is allowed.
 * @throws DocsError naming the file, with line and column, when the text is not valid JSON
 */
export function parseJsonFile(text: string, file: string): unknown {
  const body = text.replace(/^\uFEFF/, '');
  try {
    return JSON.parse(body);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const pos = /position (\d+)/.exec(reason);
    const at = pos ? lineColumn(body, Number(pos[1])) : body.trim() === '' ? lineColumn(body, body.length) : undefined;
    const short = reason.replace(/\s*in JSON at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
    const where = at ? ` at line ${at.line}, column ${at.column}` : '';
    throw new DocsError(`${file}: not valid JSON${where}: ${body.trim() === '' ? 'the file is empty' : short}`, file, at?.line, at?.column);
  }
}
