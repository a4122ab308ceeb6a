/**
 * The text to insert so that images stand on lines of their own: a line break before them when the
 * line has text before `column` (1-based), and one after them when text follows or when they end the file.
 */
export function imageBlockText(lineText: string, column: number, lastLine: boolean, markdown: readonly string[]): string {
  const before = lineText.slice(0, column - 1).trim() !== '' ? '\n' : '';
  const after = lineText.slice(column - 1).trim() !== '' || lastLine ? '\n' : '';
  return `${before}${markdown.join('\n')}${after}`;
}
