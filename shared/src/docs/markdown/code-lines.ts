/**
 * Per-line marks of a code block (Mintlify's code block options, mintlify.com/docs/create/code):
 * meta `{1,3-5}` / `highlight={...}` → class `highlighted`; meta `focus={...}` → class `focused` on those
 * lines and `has-focused` on the `<pre>` (the others are dimmed by components.css); and the comment
 * notations `[!code ++]`, `[!code --]`, `[!code highlight]`, `[!code focus]` (with an optional `:n`
 * line count) through `@shikijs/transformers` — the comment is removed from the shown (and copied) code,
 * the line gets `diff add` / `diff remove` / `highlighted` / `focused`, and the `<pre>` `has-diff` /
 * `has-highlighted` / `has-focused`. Notations are read in comments only, so a language without comments
 * in its grammar (plain text) keeps them as text.
 */
import {
  transformerNotationDiff,
  transformerNotationFocus,
  transformerNotationHighlight,
} from '@shikijs/transformers';
import type { ShikiTransformer } from 'shiki/core';
import type { FenceMeta } from './fence-meta';

/** Adds `className` to the given 1-based lines (`offset`: lines of the block before this part) and `preClass` to the `<pre>`. */
function lineClass(name: string, lines: ReadonlySet<number>, className: string, preClass: string | undefined, offset: number): ShikiTransformer {
  return {
    name,
    line(node, line) {
      if (lines.has(line + offset)) this.addClassToHast(node, className);
    },
    pre(node) {
      if (preClass) this.addClassToHast(node, preClass);
    },
  };
}

const NOTATIONS: ShikiTransformer[] = [
  transformerNotationDiff({ matchAlgorithm: 'v3' }),
  transformerNotationHighlight({ matchAlgorithm: 'v3' }),
  transformerNotationFocus({ matchAlgorithm: 'v3' }),
];

/** Cheap test for a `[!code ...]` notation, so that blocks without one skip the comment scan. */
const HAS_NOTATION = /\[!code (?:\+\+|--|highlight|hl|focus)(?::\d+)?\]/;

/**
 * The shiki transformers for a block (or the part of it starting after `offset` lines) with fence `meta`.
 * Meta line numbers count the lines as written (before notation-only lines are removed).
 */
export function lineTransformers(meta: FenceMeta, code: string, offset = 0): ShikiTransformer[] {
  const out: ShikiTransformer[] = [];
  if (meta.highlight.size) out.push(lineClass('quire:line-highlight', meta.highlight, 'highlighted', undefined, offset));
  if (meta.focus.size) out.push(lineClass('quire:line-focus', meta.focus, 'focused', 'has-focused', offset));
  if (HAS_NOTATION.test(code)) out.push(...NOTATIONS);
  return out;
}
