/**
 * Parsing of a code fence's info string (MINTLIFY-FORMAT.md section 9, "Code fences take meta after the
 * language"): ```` ```ts title="app.ts" {1,3-5} wrap ```` or ```` ```ts app.ts highlight={2} focus={4-6} lines expandable ````.
 * The options are Mintlify's code block options (mintlify.com/docs/create/code, "Code block options"):
 * string and boolean options with `""`, `''` or no quotes, expression options with `{}`, `""` or `''`.
 */

/** What the renderer uses from a fence's meta. */
export interface FenceMeta {
  /** file name / label shown in the title bar and as the CodeGroup tab; '' when none */
  title: string;
  /** 1-based line numbers to highlight */
  highlight: Set<number>;
  /** `wrap`: wrap long lines instead of scrolling */
  wrap: boolean;
  /** `lines`: show line numbers */
  lineNumbers: boolean;
  /** `nocopy`: no copy button */
  noCopy: boolean;
  /** `focus={ranges}`: 1-based lines shown in focus, the others dimmed */
  focus: Set<number>;
  /** `expandable`: a long block is shown collapsed with a button to expand it */
  expandable: boolean;
}

const FLAGS = new Set(['wrap', 'lines', 'nocopy', 'expandable', 'twoslash']);

/**
 * Expands a line-range list such as `1,3-5` into {1,3,4,5}. Ranges are capped at 10,000 lines
 * so that a hostile `{1-99999999}` cannot allocate a huge set.
 */
export function parseLineRanges(spec: string): Set<number> {
  const out = new Set<number>();
  for (const part of spec.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
    if (!m) continue;
    const from = Number(m[1]);
    const to = Math.min(m[2] === undefined ? from : Number(m[2]), from + 10_000);
    for (let n = from; n <= to; n++) out.add(n);
  }
  return out;
}

/**
 * Parses the meta part of an info string (everything after the language).
 * Recognized: `title="..."`/`title='...'`, `{ranges}`, `highlight={ranges}`, `focus={ranges}` (also
 * with `""`/`''`), `icon=...` and `theme=...` (ignored), flags `wrap lines nocopy expandable twoslash`
 * (`wrap={true}`, `lines="false"` too); the remaining words form the title (surrounding quotes removed).
 */
export function parseFenceMeta(meta: string | null | undefined): FenceMeta {
  const result: FenceMeta = { title: '', highlight: new Set(), wrap: false, lineNumbers: false, noCopy: false, focus: new Set(), expandable: false };
  if (!meta) return result;
  let rest = meta;
  rest = rest.replace(/\btitle=(?:"([^"]*)"|'([^']*)'|(\S+))/, (_m, a?: string, b?: string, c?: string) => {
    result.title = a ?? b ?? c ?? '';
    return ' ';
  });
  rest = rest.replace(/\b(highlight|focus)=(?:\{([^}]*)\}|"([^"]*)"|'([^']*)')/g, (_m, key: string, a?: string, b?: string, c?: string) => {
    const target = key === 'focus' ? result.focus : result.highlight;
    for (const n of parseLineRanges(a ?? b ?? c ?? '')) target.add(n);
    return ' ';
  });
  // boolean options written with a value: `wrap={true}`, `lines="false"`
  rest = rest.replace(/\b(wrap|lines|nocopy|expandable)=(?:\{(\w+)\}|"(\w+)"|'(\w+)'|(\w+))/g, (_m, key: string, a?: string, b?: string, c?: string, d?: string) =>
    (a ?? b ?? c ?? d) === 'false' ? ' ' : ` ${key} `,
  );
  rest = rest.replace(/\{([\d,\s-]*)\}/g, (_m, a: string) => {
    for (const n of parseLineRanges(a)) result.highlight.add(n);
    return ' ';
  });
  rest = rest.replace(/\b(?:icon|theme)=(?:"[^"]*"|'[^']*'|\S+)/g, ' ');
  const words: string[] = [];
  for (const w of rest.split(/\s+/)) {
    if (!w) continue;
    if (FLAGS.has(w)) {
      if (w === 'wrap') result.wrap = true;
      else if (w === 'lines') result.lineNumbers = true;
      else if (w === 'nocopy') result.noCopy = true;
      else if (w === 'expandable') result.expandable = true;
    } else words.push(w);
  }
  if (!result.title) result.title = words.join(' ').replace(/^(["'])(.*)\1$/, '$2');
  return result;
}

/** Splits a markdown-it style info string `lang meta...` into language and meta. */
export function splitInfo(info: string): { lang: string; meta: string } {
  const trimmed = info.trim();
  const i = trimmed.search(/\s/);
  return i < 0 ? { lang: trimmed, meta: '' } : { lang: trimmed.slice(0, i), meta: trimmed.slice(i + 1) };
}
