/** The renderer's preparation of MDX (`prepareMdx`) records what it replaced, and offsets trace back to the page. */
import { describe, expect, it } from 'vitest';
import { prepareMdx } from '../../../src/docs/markdown/mdx';
import { originOffsets, type TextEdit } from '../../../src/docs/markdown/text-edits';

const body = [
  '## Costs $5 {#costs}',
  'Area $\\pi r^2$ here, for $5 and $10.',
  'The identity <Latex>e^{i\\pi} + 1 = 0</Latex> holds; so does `$x$` in code.',
  '',
  '$$x^{2}$$',
  '',
  '$$ \\frac{1}{2}',
  '\\frac{3}{4} $$',
  '',
  '<Latex>',
  '\\sum_{k=1}^{n} k',
  '</Latex>',
  '',
  'Last words with $a_{1}$ and `code`.',
  '$$',
  'never closed',
].join('\n');

/** Applies `edits` (in increasing order) to `text`. */
function apply(text: string, edits: readonly TextEdit[]): string {
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += text.slice(at, e.from) + e.text;
    at = e.to;
  }
  return out + text.slice(at);
}

describe('prepareMdx with recorded steps', () => {
  it('prepares the same text with or without recording', () => {
    const steps: TextEdit[][] = [];
    expect(prepareMdx(body, steps)).toBe(prepareMdx(body));
    expect(steps).toHaveLength(3);
  });

  it('records replacements that rebuild each step, and every word outside them traces back to its place', () => {
    const steps: TextEdit[][] = [];
    const prepared = prepareMdx(body, steps);
    const fenced = apply(body, steps[0]!);
    expect(apply(apply(fenced, steps[1]!), steps[2]!)).toBe(prepared);
    expect(prepared).toContain('## Costs $5 {/*#costs*/}');

    const back = (offset: number) => originOffsets(steps[0]!)(originOffsets(steps[1]!)(originOffsets(steps[2]!)(offset)));
    for (const word of ['Costs', 'Area', 'here,', '$5', 'holds;', '`$x$`', 'Last', 'words', 'and', '`code`.']) {
      const at = prepared.indexOf(word);
      expect(at, word).toBeGreaterThanOrEqual(0);
      expect(body.slice(back(at), back(at + word.length)), word).toBe(word);
    }
    expect(back(prepared.length)).toBe(body.length);
  });
});

describe('originOffsets', () => {
  it('moves offsets after a replacement by its length change and keeps those inside within it', () => {
    const back = originOffsets([{ from: 2, to: 4, text: 'wxyz' }, { from: 6, to: 6, text: '!' }]);
    // "ab[cd]ef|gh" -> "abwxyzef!gh"
    expect([0, 1, 2].map(back)).toEqual([0, 1, 2]);
    expect(back(5)).toBe(4);
    expect(back(6)).toBe(4);
    expect(back(7)).toBe(5);
    expect(back(8)).toBe(6);
    expect(back(9)).toBe(6);
    expect(back(10)).toBe(7);
  });
});
