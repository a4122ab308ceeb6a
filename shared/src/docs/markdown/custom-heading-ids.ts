/**
 * Mintlify's custom heading ids (its docs, create/text.mdx "Custom heading IDs"): `## My section {#my-anchor}` names
 * the heading `my-anchor` instead of the id made from its text. `{#…}` is not a valid MDX expression, so before
 * parsing the marker becomes an expression holding only a comment (`{/*#my-anchor*\/}`), which parses; after
 * parsing, {@link takeCustomHeadingIds} moves it onto the heading (`data.customId`) and the Markdown export shows
 * `{#my-anchor}` again ({@link unmarkCustomHeadingIds}). Lines keep their numbers.
 */
import type { TextEdit } from './text-edits';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}#{1,6}[ \t]/;
const MARKED = /\{\/\*#([^\s{}*]+)\*\/\}/g;

/**
 * The page body with each heading's trailing `{#id}` written as `{/*#id*\/}` (outside code fences).
 * @param edits when given, receives every replacement (text-edits.ts), in the body's coordinates
 */
export function markCustomHeadingIds(body: string, edits?: TextEdit[]): string {
  if (!body.includes('{#')) return body;
  let fence: string | undefined;
  let at = 0;
  const lines = body.split('\n').map((line) => {
    const start = at;
    at += line.length + 1;
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = undefined;
      return line;
    }
    if (f) {
      fence = f[1];
      return line;
    }
    const id = ATX_HEADING.test(line) ? splitCustomHeadingId(line).id : undefined;
    if (!id) return line;
    const from = line.lastIndexOf('{#');
    const to = line.indexOf('}', from) + 1;
    const text = `{/*#${id}*/}`;
    edits?.push({ from: start + from, to: start + to, text });
    return line.slice(0, from) + text + line.slice(to);
  });
  return lines.join('\n');
}

/** Undoes {@link markCustomHeadingIds} in Markdown text (the page's `.md` export). */
export function unmarkCustomHeadingIds(markdown: string): string {
  return markdown.replace(MARKED, '{#$1}');
}

/** A heading's text without a trailing `{#id}` (the id: no spaces, braces or `*`), and that id, if any. */
export function splitCustomHeadingId(raw: string): { text: string; id?: string } {
  const m = /[ \t]*\{#([^\s{}*]+)\}[ \t]*$/.exec(raw);
  return m ? { text: raw.slice(0, m.index), id: m[1]! } : { text: raw };
}

/** An mdast node as far as this module looks at it. */
interface IdNode {
  type: string;
  value?: string;
  children?: IdNode[];
  data?: Record<string, unknown>;
}

/** Moves each heading's marked custom id (its last child, an expression `/*#id*\/`) to `data.customId`; in place. */
export function takeCustomHeadingIds(node: IdNode): void {
  for (const child of node.children ?? []) takeCustomHeadingIds(child);
  if (node.type !== 'heading' || !node.children?.length) return;
  const last = node.children[node.children.length - 1]!;
  const id = last.type === 'mdxTextExpression' ? /^\/\*#([^\s{}*]+)\*\/$/.exec(last.value ?? '')?.[1] : undefined;
  if (!id) return;
  node.children.pop();
  const before = node.children[node.children.length - 1];
  if (before?.type === 'text' && before.value) before.value = before.value.replace(/[ \t]+$/, '');
  node.data = { ...node.data, customId: id };
}

/** The custom id a heading node carries after {@link takeCustomHeadingIds}, if any. */
export function customHeadingId(node: IdNode): string | undefined {
  const id = node.data?.customId;
  return typeof id === 'string' ? id : undefined;
}
