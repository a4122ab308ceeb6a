/**
 * Display math written as `$$ ... $$` (rendered with KaTeX, math.ts). Both engines turn such blocks into
 * fenced ```math blocks before parsing,
 * keeping every line where it was so that parse errors still point at the right line. Inside `$$` blocks
 * MDX would otherwise read `{...}` as JavaScript expressions.
 */

import type { TextEdit } from './text-edits';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Rewrites `$$` display-math blocks outside code fences into ```math fences, line for line.
 * A one-line `$$x$$` becomes a three-line fence only when it stands alone on its line (the extra lines are
 * taken from nothing, so later line numbers shift by two for each such line; rare in practice).
 * @param edits when given, receives each line's replacement (text-edits.ts), in the body's coordinates
 */
export function fenceDisplayMath(body: string, edits?: TextEdit[]): string {
  if (!body.includes('$$')) return body;
  const lines = body.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  let inMath = false;
  let next = 0;
  for (const line of lines) {
    const at = next;
    next += line.length + 1;
    /** The output lines of this line. */
    const put = (...written: string[]) => {
      out.push(...written);
      if (edits && (written.length !== 1 || written[0] !== line)) edits.push({ from: at, to: at + line.length, text: written.join('\n') });
    };
    if (inMath) {
      if (/^\s*\$\$\s*$/.test(line)) {
        put('```');
        inMath = false;
      } else if (/\$\$\s*$/.test(line)) {
        put(line.replace(/\$\$\s*$/, ''), '```');
        inMath = false;
      } else put(line);
      continue;
    }
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = undefined;
      put(line);
      continue;
    }
    if (f) {
      fence = f[1];
      put(line);
      continue;
    }
    const single = /^\s*\$\$(.+)\$\$\s*$/.exec(line);
    if (single) {
      put('```math', single[1]!.trim(), '```');
      continue;
    }
    const open = /^\s*\$\$(.*)$/.exec(line);
    if (open) {
      put('```math', ...(open[1]!.trim() ? [open[1]!] : []));
      inMath = true;
      continue;
    }
    put(line);
  }
  if (inMath) {
    out.push('```');
    edits?.push({ from: body.length, to: body.length, text: '\n```' });
  }
  return out.join('\n');
}
