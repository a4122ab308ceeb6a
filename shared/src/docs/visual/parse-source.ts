/**
 * A page parsed the way the renderer parses it (mdx.ts: `prepareMdx`, then unified + remark-parse + remark-mdx +
 * remark-gfm), with the frontmatter blanked in place so that the tree's offsets, traced back through the
 * preparation steps (text-edits.ts `originOffsets`), are offsets in the file as written.
 */
import { parseMarkdown, parseMdx, prepareMdx } from '../markdown/mdx';
import type { UNode } from '../markdown/mdx-nodes';
import { originOffsets, type TextEdit } from '../markdown/text-edits';

/** A parsed page and the way back from the parser's offsets to the file's. */
export interface ParsedSource {
  root: UNode;
  /** offset in the parsed (prepared) text → UTF-16 offset in the file */
  origin: (offset: number) => number;
  /** the file ranges `[from, to)` the preparation rewrote, with the step that did: 'math' or 'heading id' */
  rewritten: Array<{ from: number; to: number; reason: string }>;
  /** the frontmatter block `[0, to)` (`---` lines included), or null */
  frontmatter: { from: number; to: number; yaml: string } | null;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;

/**
 * Where the YAML frontmatter of `source` is, by the rule of frontmatter.ts `splitFrontmatter` (a `---` first
 * line closed by a `---` or `...` line); null when there is none or it is never closed.
 */
export function frontmatterRange(source: string): { from: number; to: number; yaml: string } | null {
  const open = OPEN.exec(source);
  if (!open) return null;
  const rest = source.slice(open[0].length);
  const end = CLOSE.exec(rest);
  if (!end) return null;
  return { from: 0, to: open[0].length + end.index + end[0].length, yaml: rest.slice(0, end.index) };
}

/** A node's start and end offsets in the parsed text (undefined when the node has no position). */
export function nodeOffsets(node: UNode): [number, number] | undefined {
  const s = node.position?.start.offset;
  const e = node.position?.end.offset;
  return s === undefined || e === undefined ? undefined : [s, e];
}

/** How a page is parsed: 'mdx' (`.mdx`) or plain 'md' (`.md`: raw HTML allowed, `{` and `<` are text). */
export type Flavor = 'mdx' | 'md';

/** The flavour of a file by its path: `.md` is plain Markdown (MINTLIFY-FORMAT.md section 10), anything else MDX. */
export function flavorOf(filePath: string | undefined): Flavor {
  return filePath && /\.md$/i.test(filePath) ? 'md' : 'mdx';
}

/**
 * Parses a whole page (frontmatter included) as the renderer does.
 * @throws DocsError when the MDX cannot be parsed
 */
export function parseSource(source: string, flavor: Flavor = 'mdx'): ParsedSource {
  const fm = frontmatterRange(source);
  const head = fm ? source.slice(0, fm.to).replace(/[^\r\n]/g, ' ') : source.startsWith('\uFEFF') ? ' ' : '';
  const body = head + source.slice(head.length);
  const steps: TextEdit[][] = [];
  const prepared = prepareMdx(body, steps);
  const back = steps.map((s) => originOffsets(s));
  /** offset in the output of step `n` → offset in the file */
  const through = (offset: number, n: number) => {
    let o = offset;
    for (let i = n; i >= 0; i--) o = back[i]!(o);
    return o;
  };
  const reasons = ['math', 'math', 'heading id'];
  const rewritten = steps.flatMap((edits, i) =>
    edits.map((e) => ({ from: i === 0 ? e.from : through(e.from, i - 1), to: i === 0 ? e.to : through(e.to, i - 1), reason: reasons[i] ?? 'prepared' })),
  );
  const root = flavor === 'md' ? parseMarkdown(prepared) : parseMdx(prepared, 'page');
  return { root, origin: (offset) => through(offset, steps.length - 1), rewritten, frontmatter: fm };
}
