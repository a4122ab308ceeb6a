/**
 * Closing MDX tags as you type (pure text rules; mdx-authoring.ts wires them to Monaco): typing the
 * `>` of an opening tag `<Note>` or `<Card title="A">` inserts `</Note>` after the caret. Only for a
 * component (a name starting with a capital, as MDX tells components from HTML) or a known HTML
 * element that has a closing tag (HTML Living Standard; void elements such as `img` have none); not
 * for a self-closing `<Foo />`, nor inside a fenced code block (CommonMark 0.31 section 4.5).
 */

/** HTML elements a page writes with a closing tag (void elements left out). */
const HTML_TAGS = new Set(
  (
    'a abbr article aside b blockquote button caption center code dd del details dfn div dl dt em figcaption figure footer h1 h2 h3 h4 h5 h6 ' +
    'header i iframe ins kbd label li mark nav ol p pre q s samp section small span strong sub summary sup table tbody td tfoot th thead tr u ul video audio picture'
  ).split(' '),
);

/** The opening tag just finished at the end of the text: its name, attributes spanning lines allowed; no `<`, `>` or `/>` inside. */
const OPENING_TAG = /<([A-Za-z][\w.-]*)(?:\s[^<>]*)?>$/;

/** How far back an opening tag is looked for, in characters. */
const LOOK_BACK = 2000;

/**
 * True when the end of `before` (the text of the document before a position) is inside a fenced
 * code block: an odd number of fence lines (``` or ~~~, up to three spaces of indent) precede it,
 * a fence closed only by a fence of its own character at least as long.
 */
export function insideCodeFence(before: string): boolean {
  let open: { char: string; length: number } | null = null;
  const lines = before.split('\n');
  // the line being typed on does not close or open a fence before its own caret
  for (const line of lines.slice(0, -1)) {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!m) continue;
    const fence = m[1]!;
    if (!open) {
      if (fence[0] === '`' && m[2]!.includes('`')) continue; // an info string with a backtick opens no fence
      open = { char: fence[0]!, length: fence.length };
    } else if (fence[0] === open.char && fence.length >= open.length && m[2]!.trim() === '') open = null;
  }
  return open !== null;
}

/**
 * The closing tag to insert after the caret when `before` (the document's text up to the caret)
 * ends with the `>` of an opening tag, or null: null for a self-closing tag, a closing tag, a
 * lower-case name that is not a known HTML element, inside a fenced code block or inline code, and when `after`
 * (the text after the caret) already starts with that closing tag.
 */
export function closingTagFor(before: string, after = ''): string | null {
  if (before.endsWith('/>')) return null;
  const m = OPENING_TAG.exec(before.slice(-LOOK_BACK));
  if (!m) return null;
  const line = before.slice(before.lastIndexOf('\n') + 1);
  if ((line.match(/`/g)?.length ?? 0) % 2 === 1) return null; // inside inline code
  const name = m[1]!;
  if (!/^[A-Z]/.test(name) && !HTML_TAGS.has(name)) return null;
  if (insideCodeFence(before)) return null;
  const closing = `</${name}>`;
  return after.startsWith(closing) ? null : closing;
}
