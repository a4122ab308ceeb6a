/**
 * The Markdown style a file is written in (list markers, emphasis characters, fences, line ends), so that a
 * block edited visually is written back the way its neighbours are. Each choice is the file's most used
 * form; a file without any gives mdast-util-to-markdown's defaults (`-` is used for bullets, as in most docs).
 */
import type { UNode } from '../markdown/mdx-nodes';
import { flavorOf, nodeOffsets, parseSource, type ParsedSource } from './parse-source';
import type { SourceStyle } from './types';

/** The style of a file that shows none. */
export const DEFAULT_STYLE: SourceStyle = {
  bullet: '-',
  bulletOrdered: '.',
  emphasis: '*',
  strong: '*',
  fence: '`',
  fenceLength: 3,
  rule: '-',
  listItemIndent: 'one',
  quote: '"',
  eol: '\n',
};

/** Counts of each form seen. */
class Votes<T extends string | number> {
  private readonly counts = new Map<T, number>();
  add(v: T | undefined): void {
    if (v !== undefined) this.counts.set(v, (this.counts.get(v) ?? 0) + 1);
  }
  /** the most seen form among `allowed` (ties: the first seen), else `fallback` */
  best(fallback: T, allowed?: readonly T[]): T {
    let out = fallback;
    let n = 0;
    for (const [v, c] of this.counts) if (c > n && (!allowed || allowed.includes(v))) [out, n] = [v, c];
    return out;
  }
}

/** Infers the style from an already parsed file (parse.ts uses this to avoid parsing twice). */
export function inferStyleFromTree(source: string, parsed?: ParsedSource): SourceStyle {
  const crlf = (source.match(/\r\n/g) ?? []).length;
  const lf = (source.match(/\n/g) ?? []).length - crlf;
  const style: SourceStyle = { ...DEFAULT_STYLE, eol: crlf > lf ? '\r\n' : '\n' };
  if (!parsed) return style;
  const v = {
    bullet: new Votes<string>(),
    ordered: new Votes<string>(),
    emphasis: new Votes<string>(),
    strong: new Votes<string>(),
    fence: new Votes<string>(),
    fenceLength: new Votes<number>(),
    rule: new Votes<string>(),
    indent: new Votes<string>(),
    quote: new Votes<string>(),
  };
  const at = (n: UNode) => {
    const o = nodeOffsets(n);
    return o ? parsed.origin(o[0]) : undefined;
  };
  const walk = (n: UNode, parent?: UNode) => {
    const from = at(n);
    if (from !== undefined) {
      const c = source[from];
      if (n.type === 'listItem' && parent) {
        const marker = /^(?:([-*+])|\d{1,9}([.)]))([ \t]*)/.exec(source.slice(from, from + 16));
        if (marker) {
          if (parent.ordered) v.ordered.add(marker[2]);
          else v.bullet.add(marker[1]);
          const first = n.children?.[0];
          const start = first ? at(first) : undefined;
          if (start !== undefined && source.slice(from, start).indexOf('\n') < 0) v.indent.add(start - from - marker[0].length + marker[3]!.length > 1 ? 'tab' : 'one');
        }
      }
      if (n.type === 'emphasis') v.emphasis.add(c);
      if (n.type === 'strong') v.strong.add(c);
      if (n.type === 'thematicBreak') v.rule.add(c);
      if (n.type === 'code') {
        const fence = /^(`{3,}|~{3,})/.exec(source.slice(from, from + 40));
        if (fence) {
          v.fence.add(fence[1]![0]);
          v.fenceLength.add(fence[1]!.length);
        }
      }
    }
    for (const a of (n.attributes as Array<UNode & { value?: unknown }> | undefined) ?? []) {
      const o = nodeOffsets(a);
      if (o && typeof a.value === 'string') v.quote.add(/=\s*(["'])/.exec(source.slice(parsed.origin(o[0]), parsed.origin(o[1])))?.[1]);
    }
    for (const c of n.children ?? []) walk(c, n);
  };
  walk(parsed.root);
  return {
    ...style,
    bullet: v.bullet.best('-', ['-', '*', '+']) as SourceStyle['bullet'],
    bulletOrdered: v.ordered.best('.', ['.', ')']) as SourceStyle['bulletOrdered'],
    emphasis: v.emphasis.best('*', ['*', '_']) as SourceStyle['emphasis'],
    strong: v.strong.best('*', ['*', '_']) as SourceStyle['strong'],
    fence: v.fence.best('`', ['`', '~']) as SourceStyle['fence'],
    fenceLength: v.fenceLength.best(3),
    rule: v.rule.best('-', ['-', '*', '_']) as SourceStyle['rule'],
    listItemIndent: v.indent.best('one', ['one', 'tab']) as SourceStyle['listItemIndent'],
    quote: v.quote.best('"', ['"', "'"]) as SourceStyle['quote'],
  };
}

/**
 * The file's Markdown style: the most used marker of each kind, defaults ({@link DEFAULT_STYLE}) otherwise;
 * `.md` paths parse as plain Markdown. Never throws.
 */
export function inferSourceStyle(source: string, filePath?: string): SourceStyle {
  try {
    return inferStyleFromTree(source, parseSource(source, flavorOf(filePath)));
  } catch {
    return inferStyleFromTree(source);
  }
}
