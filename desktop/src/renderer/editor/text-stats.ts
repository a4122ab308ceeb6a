/** Words of a page for the status bar: frontmatter, fenced code, HTML/JSX tags and Markdown markup left out. */
export function wordCount(text: string): number {
  const body = text
    .replace(/^---\r?\n[\s\S]*?\r?\n---(\r?\n|$)/, '')
    .replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(\n\1\2[`~]*[ \t]*(\n|$)|$)/gm, '')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .replace(/^\s*(import|export)\s.*$/gm, '')
    .replace(/[#>*_`~|[\]()!-]+/g, ' ');
  const words = body.match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu);
  return words ? words.length : 0;
}

/** Minutes to read `words` at `wordsPerMinute`, rounded up (0 for no words). */
export function readingMinutes(words: number, wordsPerMinute: number): number {
  return words === 0 ? 0 : Math.max(1, Math.ceil(words / wordsPerMinute));
}
